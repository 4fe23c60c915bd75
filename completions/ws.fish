# fish completion for ws, ws-ls, ws-grep, ws-build, ws-commit and ws-apply.
#
# Installed as share/fish/vendor_completions.d/<command>.fish (fish loads it
# when the command is first completed), or source it from config.fish. Like
# the bash completion (ws.bash), it reads each tool's own option table,
# `ws-X --help-options` (`ws X --help-options` after the front door): one
# option a line, NAMES TYPE VALUES HELP separated by a tab. Values: VALUES
# when the table has them (and the kinds of .ws/kinds/*.json for a KIND);
# REV: HEAD, branches, tags and remote branches; BRANCH: branches; ID:
# proposal ids; DIR: folders; PATHSPEC: files. An optional value ("[=REV]")
# is completed only after '=', as the tools take it.

# The option table of the command words $argv (a tool, or ws and a command),
# read once per shell.
function __ws_table
    set -l key __ws_table_(string escape --style=var -- "$argv")
    if not set -q $key
        set -g $key ($argv --help-options 2>/dev/null)
    end
    string join \n -- $$key
end

# git in the folder the command line names with -C DIR / --directory DIR.
function __ws_git
    if set -q __ws_dir[1]
        git -C $__ws_dir $argv 2>/dev/null
    else
        git $argv 2>/dev/null
    end
end

# Candidates for a value of type $argv[1] with the comma-joined values $argv[2].
function __ws_values
    set -l type $argv[1]
    set -l values (string split -n , -- $argv[2])
    if test "$type" = KIND
        set -l top (__ws_git rev-parse --show-toplevel)
        and for f in $top/.ws/kinds/*.json
            string replace -rf '^\s*"kind"\s*:\s*"([a-z0-9-]*)".*' '$1' <$f | head -n 1
        end
    end
    if set -q values[1]
        string join \n -- $values
        return
    end
    switch $type
        case REV '[=REV]'
            echo HEAD
            __ws_git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes
        case BRANCH
            __ws_git for-each-ref --format='%(refname:short)' refs/heads
        case ID
            set -l apply ws-apply
            string match -q '*/*' -- $__ws_cmd; and set apply (string replace -r '[^/]*$' ws-apply -- $__ws_cmd)
            if set -q __ws_dir[1]
                $apply -C $__ws_dir --list --all --all-sessions --json 2>/dev/null
            else
                $apply --list --all --all-sessions --json 2>/dev/null
            end | string replace -rf '.*"id":"([0-9a-f]*)".*' '$1'
        case DIR
            __fish_complete_directories (commandline -ct)
        case PATHSPEC
            __fish_complete_path (commandline -ct)
    end
end

# The table's line for option $argv[1], or nothing.
function __ws_option_line
    for line in $argv[2..-1]
        set -l f (string split \t -- $line)
        contains -- $argv[1] (string split , -- $f[1]); and echo $line; and return 0
    end
    return 1
end

function __ws_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -g __ws_cmd $words[1]
    set -e __ws_dir
    set -l cmdwords $words[1]
    set -l rest $words[2..-1]
    if test (string replace -r '.*/' '' -- $words[1]) = ws
        if not set -q rest[1]
            $words[1] --help 2>/dev/null | string replace -rf '^  ([a-z][a-z-]*) +(.*)$' '$1\t$2'
            return
        end
        set cmdwords $words[1] $rest[1]
        set rest $rest[2..-1]
    end
    set -l table (__ws_table $cmdwords)
    set -q table[1]; or return

    # The words before the cursor: -C DIR, "--", a pattern option, operands.
    set -l operands 0
    set -l dashdash 0
    set -l pattern_given 0
    set -l skip 0
    for w in $rest
        if test $skip = 1
            set skip 0
            test "$__ws_dir" = next; and set -g __ws_dir $w
            continue
        end
        if test $dashdash = 1
            set operands (math $operands + 1)
            continue
        end
        switch $w
            case --
                set dashdash 1
                continue
            case -e --regexp --ref --defines '--regexp=*' '--ref=*' '--defines=*'
                set pattern_given 1
        end
        set -l name (string replace -r '=.*' '' -- $w)
        if string match -q -- '-?*' $w; and set -l line (__ws_option_line $name $table)
            set -l type (string split \t -- $line)[2]
            if test -n "$type"; and not string match -q '[=*' -- $type
                if string match -q -- '*=*' $w
                    test $type = DIR; and set -g __ws_dir (string replace -r '^[^=]*=' '' -- $w)
                else
                    set skip 1
                    test $type = DIR; and set -g __ws_dir next
                end
            end
        else if not string match -q -- '-?*' $w
            set operands (math $operands + 1)
        end
    end
    test "$__ws_dir" = next; and set -e __ws_dir
    if test $skip = 1; and test $dashdash = 0
        # The value of the option before the cursor.
        set -l line (__ws_option_line $rest[-1] $table)
        set -l f (string split \t -- $line)
        __ws_values $f[2] $f[3]
        return
    end
    if test $dashdash = 0; and string match -q -- '--*=*' $cur
        set -l name (string replace -r '=.*' '' -- $cur)
        set -l line (__ws_option_line $name $table); or return
        set -l f (string split \t -- $line)
        for v in (__ws_values (string replace -r '^\[=(.*)\]$' '$1' -- $f[2]) $f[3])
            echo $name=$v
        end
        return
    end
    if test $dashdash = 0; and string match -q -- '-*' $cur
        for line in $table
            set -l f (string split \t -- $line)
            string match -q -- '-*' $f[1]; or continue
            for n in (string split , -- $f[1])
                printf '%s\t%s\n' $n $f[4]
            end
        end
        return
    end
    # An operand: ws-grep's first is the PATTERN unless -e, --ref or --defines gave one.
    for line in $table
        set -l f (string split \t -- $line)
        string match -q -- '-*' $f[1]; and continue
        set -l type $f[2]
        test -n "$type"; or set type $f[1]
        if string match -q 'PATTERN*' -- $type
            test $pattern_given = 1 -o $operands -gt 0; or return
            set type PATHSPEC
        end
        __ws_values $type ''
        return
    end
end

for c in ws ws-ls ws-grep ws-build ws-commit ws-apply
    complete -c $c -f -a '(__ws_complete)'
end
