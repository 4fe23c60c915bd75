# The interactive zsh of tests/support/zsh/complete.zsh: the completion
# system with the _ws of $WS_ZSH_FPATH, and compadd recording each match it
# adds, one a line, in $WS_ZSH_OUT (the calls that only ask, -O -A -D, are
# passed through).
PS1='%% '
fpath=($WS_ZSH_FPATH $fpath)
autoload -Uz compinit
compinit -u -D
# Matches are recorded below, never listed: the line stays as typed.
unsetopt auto_list list_ambiguous beep
# Records every match the completion adds, one a line, then adds it.
compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a __hits
  builtin compadd -A __hits "$@"
  (( $#__hits )) && print -rl -- $__hits >> $WS_ZSH_OUT
  builtin compadd "$@"
}
# TAB completes, then prints a line the driver waits for: it types the next
# keys only once the completion is over, however slow the machine.
__ws_complete_then_mark() {
  zle complete-word
  print -r -- $'\n__completed__' > /dev/tty
}
zle -N __ws_complete_then_mark
bindkey '^I' __ws_complete_then_mark
