# bash completion for ws, ws-ls, ws-grep, ws-build, ws-commit and ws-apply.
#
# Installed as share/bash-completion/completions/<tool> (bash-completion loads
# it on demand), or source it from ~/.bashrc. It needs nothing else: the
# options come from the tools themselves. `ws-X --help-options` prints the
# tool's option table, one option a line, fields separated by a tab:
#   NAMES  TYPE  VALUES  HELP
# (NAMES comma-joined, a positional argument without dashes; TYPE empty for a
# flag; VALUES comma-joined when the option accepts only those). The table is
# read once per tool and shell.
#
# Values: VALUES when the table has them (--color, --format, --in, --kind, to
# which the kinds a workspace declares in .ws/kinds/*.json are added); REV:
# the branches, tags and remote branches (git for-each-ref) and HEAD; BRANCH:
# the branches; ID: proposal ids (ws-apply --list --all --all-sessions --json), only
# those that can still be applied where one is applied or rejected; DIR:
# directories; PATHSPEC: paths from the current folder, as the tools read
# them. Free text (N, NAME, MSG, SYMBOL, PATTERN) completes to nothing.
# An optional value ("[=REV]") is completed only after '=': the tools never
# take it from the next word. `ws COMMAND ...` completes as the tool
# ws-COMMAND does (its table is `ws COMMAND --help-options`); the commands
# come from `ws --help`.

declare -gA _ws_option_tables

# The command word $1 with a leading "~/" expanded.
_ws_expand() {
    # shellcheck disable=SC2088 # a literal "~/" typed on the command line
    if [[ $1 == "~/"* ]]; then printf '%s\n' "$HOME/${1#"~/"}"; else printf '%s\n' "$1"; fi
}

# Sets _ws_table to the option table of the command word $1 (and, for the
# front door ws, of its command $2).
_ws_load_table() {
    local cmd key
    cmd=$(_ws_expand "$1")
    key="$cmd${2:+ $2}"
    if [[ -z ${_ws_option_tables[$key]} ]]; then
        _ws_option_tables[$key]=$("$cmd" ${2:+"$2"} --help-options 2>/dev/null)
    fi
    # Tab is whitespace to `read`, which would merge the empty fields around
    # it: split on the unit separator instead.
    _ws_table=${_ws_option_tables[$key]//$'\t'/$'\x1f'}
}

# The commands of the front door $1, as its --help lists them.
_ws_commands() {
    "$(_ws_expand "$1")" --help 2>/dev/null | sed -n '/^Commands:$/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

# Sets _ws_type and _ws_values for the option named $1 ("" when unknown).
_ws_option_info() {
    local names type values name
    _ws_type="" _ws_values=""
    while IFS=$'\x1f' read -r names type values _; do
        local IFS=,
        for name in $names; do
            if [[ $name == "$1" ]]; then
                _ws_type=$type _ws_values=${values//,/ }
                return 0
            fi
        done
    done <<<"$_ws_table"
    return 1
}

# The option names of the table, one a line.
_ws_option_names() {
    local names rest name
    while IFS=$'\x1f' read -r names rest; do
        [[ $names == -* ]] || continue
        local IFS=,
        for name in $names; do printf '%s\n' "$name"; done
    done <<<"$_ws_table"
}

# The type of the positional arguments (the first table line without dashes),
# or their name when they have no type name.
_ws_positional_type() {
    local names type rest
    while IFS=$'\x1f' read -r names type rest; do
        if [[ -n $names && $names != -* ]]; then
            printf '%s\n' "${type:-$names}"
            return
        fi
    done <<<"$_ws_table"
}

# git in the directory the command line names with -C DIR / --directory DIR.
_ws_git() {
    git ${_ws_dir:+-C "$_ws_dir"} "$@" 2>/dev/null
}

# The kinds a workspace adds in .ws/kinds/*.json (the manifest's "kind").
_ws_workspace_kinds() {
    local top f
    top=$(_ws_git rev-parse --show-toplevel) || return
    for f in "$top"/.ws/kinds/*.json; do
        [[ -f $f ]] || continue
        sed -n 's/^[[:space:]]*"kind"[[:space:]]*:[[:space:]]*"\([a-z0-9-]*\)".*/\1/p' "$f" | head -n 1
    done
}

# Proposal ids, settled ones too (--all); with $1 = applicable, only current
# and stale ones.
_ws_proposal_ids() {
    local apply=ws-apply
    [[ $_ws_cmd == */* ]] && apply=${_ws_cmd%/*}/ws-apply
    "$apply" ${_ws_dir:+-C "$_ws_dir"} --list --all --all-sessions --json 2>/dev/null |
        sed -n 's/.*"id":"\([0-9a-f]*\)".*"state":"\([a-z]*\)".*/\1 \2/p' |
        while read -r id state; do
            if [[ $1 != applicable || $state == current || $state == stale ]]; then
                printf '%s\n' "$id"
            fi
        done
}

# Paths matching $1 as the tools read a pathspec (ws(7), PATHSPECS): from the
# current folder, -C DIR's when given; directories end with '/'.
_ws_paths() {
    local base=${_ws_dir:-.} p
    while IFS= read -r p; do
        [[ ${p##*/} == .git ]] && continue
        if [[ -d $base/$p ]]; then printf '%s/\n' "$p"; else printf '%s\n' "$p"; fi
    done < <(cd "$base" 2>/dev/null && compgen -f -- "$1" | LC_ALL=C sort)
}

# Candidates for a value of type $1 with values $2, matching $3, one a line.
_ws_values_for() {
    local type=$1 values=$2 cur=$3
    case $type in
        KIND) values="$values $(_ws_workspace_kinds)" ;;
    esac
    if [[ -n ${values// /} ]]; then
        compgen -W "$values" -- "$cur"
        return
    fi
    case $type in
        REV | "[=REV]") compgen -W "HEAD $(_ws_git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes)" -- "$cur" ;;
        BRANCH) compgen -W "$(_ws_git for-each-ref --format='%(refname:short)' refs/heads)" -- "$cur" ;;
        ID) compgen -W "$(_ws_proposal_ids "$4")" -- "$cur" ;;
        DIR) compgen -d -- "$cur" | LC_ALL=C sort | while IFS= read -r d; do printf '%s/\n' "$d"; done ;;
        PATHSPEC | *"[PATHSPEC...]") _ws_paths "$cur" ;;
        N | NAME | MSG | SYMBOL | PATTERN | CLASS | FORMAT | WHEN) ;;
        *) compgen -f -- "$cur" ;;
    esac
}

_ws_complete() {
    local _ws_cmd=${COMP_WORDS[0]} _ws_table _ws_type _ws_values _ws_dir=""
    local cur=${COMP_WORDS[COMP_CWORD]} prev="" option="" prefix="" i word
    COMPREPLY=()
    # The front door: its first word is a command, and the rest completes as
    # that tool, the command word taken off.
    if [[ ${_ws_cmd##*/} == ws ]]; then
        if ((COMP_CWORD == 1)); then
            mapfile -t COMPREPLY < <(compgen -W "$(_ws_commands "$_ws_cmd")" -- "$cur")
            return 0
        fi
        local sub=${COMP_WORDS[1]}
        _ws_load_table "$_ws_cmd" "$sub"
        COMP_WORDS=("$_ws_cmd $sub" "${COMP_WORDS[@]:2}")
        ((COMP_CWORD--))
    else
        _ws_load_table "$_ws_cmd"
    fi
    [[ -n $_ws_table ]] || return 0
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

    # Walk the words before the cursor: the directory option, "--", and how
    # many positional arguments there are.
    local positionals=0 dashdash=0 pattern_given=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if ((dashdash)); then ((positionals++)); continue; fi
        case $word in
            --) dashdash=1 ;;
            -e | --regexp | --ref | --defines | --regexp=* | --ref=* | --defines=*) pattern_given=1 ;;
        esac
        [[ $word == --* && $word == *=* ]] && word=${word%%=*}
        if [[ $word == -* && $word != - && $word != -- ]] && _ws_option_info "$word"; then
            # An optional value ("[=REV]") never takes the next word.
            if [[ $_ws_type == "[="* ]]; then
                :
            elif [[ -n $_ws_type && ${COMP_WORDS[i]} != *=* ]]; then
                # the option takes the next word (or "=" and the word after it)
                ((i++))
                [[ ${COMP_WORDS[i]} == "=" ]] && ((i++))
                [[ $_ws_type == DIR ]] && _ws_dir=${COMP_WORDS[i]}
            elif [[ $_ws_type == DIR ]]; then
                _ws_dir=${COMP_WORDS[i]#*=}
            fi
        elif [[ $word != -* && $word != "=" ]]; then
            ((positionals++))
        fi
    done
    # shellcheck disable=SC2088 # a literal "~/" typed on the command line
    [[ $_ws_dir == "~/"* ]] && _ws_dir=$HOME/${_ws_dir#"~/"}

    # Which option's value is being completed, if any: "--opt VALUE",
    # "--opt=VALUE" as one word, or "--opt" "=" "VALUE" as bash splits it.
    if ((!dashdash)); then
        if [[ $cur == --*=* ]]; then
            option=${cur%%=*} prefix=$option= cur=${cur#*=}
        elif [[ $cur == "=" && $prev == --* ]]; then
            option=$prev cur=""
        elif [[ $prev == "=" && $COMP_CWORD -ge 2 && ${COMP_WORDS[COMP_CWORD - 2]} == --* ]]; then
            option=${COMP_WORDS[COMP_CWORD - 2]}
        elif [[ $prev == -* ]] && _ws_option_info "$prev" && [[ -n $_ws_type && $_ws_type != "[="* ]]; then
            option=$prev
        fi
    fi

    local applicable=""
    if [[ -n $option ]]; then
        _ws_option_info "$option" || return 0
        [[ -n $_ws_type ]] || return 0
        [[ $option == --reject ]] && applicable=applicable
        mapfile -t COMPREPLY < <(_ws_values_for "$_ws_type" "$_ws_values" "$cur" "$applicable")
        if [[ -n $prefix ]]; then
            for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=$prefix${COMPREPLY[i]}; done
        fi
    elif [[ $cur == -* ]] && ((!dashdash)); then
        mapfile -t COMPREPLY < <(compgen -W "$(_ws_option_names)" -- "$cur")
    else
        local type
        type=$(_ws_positional_type)
        # ws-grep: the first positional argument is the PATTERN unless -e,
        # --ref or --defines gave one; the others are paths.
        if [[ $type == PATTERN* ]]; then
            ((pattern_given || positionals > 0)) || return 0
            type=PATHSPEC
        fi
        [[ $type == ID ]] && applicable=applicable
        mapfile -t COMPREPLY < <(_ws_values_for "$type" "" "$cur" "$applicable")
    fi
    # A directory or an "--opt=" is not finished: no space after it.
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}

complete -F _ws_complete ws ws-ls ws-grep ws-build ws-commit ws-apply
