# Completes a command line in a real interactive zsh, through its line
# editor: types $2 and TAB in a pseudo-terminal (zpty), after sourcing the rc
# file $1 (tests/support/zsh/rc.zsh, which records every match in
# $WS_ZSH_OUT). Exit 3: no zpty; 4, 5: the shell did not answer.
zmodload zsh/zpty || exit 3
zpty z zsh -f -i || exit 3
# Reads the shell's output until a line starts with $1.
wait_for() {
  local line
  for i in {1..400}; do
    zpty -r -t z line || { sleep 0.05; continue; }
    [[ $line == $1* ]] && return 0
  done
  return 1
}
zpty -w z "source ${(q)1}; print -r -- __ready__"
wait_for __ready__ || exit 4
zpty -w -n z "$2"$'\t'
wait_for __completed__ || exit 5
zpty -w z $'\C-u'"print -r -- __done__"
wait_for __done__ || exit 5
zpty -d z
