package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// command is one command of the command line. Its flags are the ones its
// run function declares: help is made from them (flagSet), so no flag
// exists without being listed.
type command struct {
	// name is the words after "quire", such as "admin user create".
	name string
	// args are the positional arguments and required flags, as the
	// synopsis shows them before the optional flags.
	args string
	// summary says what the command does.
	summary string
	run     func(e *env, ctx context.Context, args []string) int
}

// commands are every command, in the order help lists them. (Set in init:
// the commands' help reads the table.)
var commands []command

func init() {
	commands = []command{
		{name: "serve", summary: "Bind --addr (and --metrics-addr), failing at once when a port is taken; migrate the database (/readyz answers 503 meanwhile); then serve the API, the reader and /metrics, and work background jobs, until SIGTERM or SIGINT.",
			run: (*env).serve},
		{name: "migrate", summary: "Apply pending schema migrations (creating a SQLite file, not its directory); --status prints the applied and pending migrations as JSON and changes nothing.",
			run: (*env).migrate},
		{name: "admin bootstrap", args: "--org TITLE --email EMAIL",
			summary: `Create an organization, an admin user (or reuse the user with that email) and an API token; prints {"organization":{"id":...},"user":{"id":...},"token":...,"tokenId":...}.`,
			run:     (*env).adminBootstrap},
		{name: "admin user create", args: "--email EMAIL",
			summary: `Create a user, optionally a member of an organization (--org with --role), and an API token; prints {"user":{"id":...},"token":...,"tokenId":...}. --verified marks the email address verified (it lets the user join organizations of its domain).`,
			run:     (*env).adminUserCreate},
		{name: "admin user verify", args: "(--user USER_ID | --email EMAIL)",
			summary: `Mark a user's email address verified (or, --unverify, not); prints {"user":{"id":...,"email":...,"emailVerifiedAt":...}}.`,
			run:     (*env).adminUserVerify},
		{name: "admin token create", args: "--user USER_ID",
			summary: `Create an API token for a user; prints {"token":...,"tokenId":...}.`,
			run:     (*env).adminTokenCreate},
		{name: "admin token revoke", args: "(--token-id ID | --token SECRET)",
			summary: `Revoke an API token: requests with it get 401 from then on; prints {"revoked":{"id":...,"user":{"id":...}}}.`,
			run:     (*env).adminTokenRevoke},
		{name: "admin jobs list",
			summary: "Background jobs, newest first: id, kind, state, progress, subject. The periodic housekeeping jobs are left out unless --all; --watch prints the list again every --interval until interrupted.",
			run:     (*env).adminJobsList},
		{name: "admin jobs show", args: "JOB_ID",
			summary: "One job: state, attempts, progress (a bar), step and errors; --watch follows a running job until it finishes.",
			run:     (*env).adminJobsShow},
		{name: "admin jobs cancel", args: "JOB_ID",
			summary: "Stop a job: a pending one never runs, a running one stops at its next progress report.",
			run:     func(e *env, ctx context.Context, args []string) int { return e.adminJobsAct(ctx, "cancel", args) }},
		{name: "admin jobs retry", args: "JOB_ID",
			summary: "Run a finished (failed, cancelled or completed) job again.",
			run:     func(e *env, ctx context.Context, args []string) int { return e.adminJobsAct(ctx, "retry", args) }},
		{name: "admin org block", args: "ORG_ID --reason TEXT",
			summary: `Block an organization: every call of the API on what is in it gets 403 with the reason; the organization itself shows its block. Prints {"organization":{"id":...,"blocked":...}}, as unblock and set do.`,
			run:     (*env).adminOrgBlock},
		{name: "admin org unblock", args: "ORG_ID",
			summary: "Lift an organization's block.",
			run:     (*env).adminOrgUnblock},
		{name: "admin org set", args: "ORG_ID",
			summary: "Set (or, with an empty value, clear) an organization's use case and community type.",
			run:     (*env).adminOrgSet},
		{name: "version", summary: "Print the version, the commit and build time, and the Go version.",
			run: func(e *env, _ context.Context, args []string) int { return e.printVersion(args) }},
	}
}

// envOnly are the environment variables that no flag stands for.
var envOnly = []struct{ name, text string }{
	{envSigningKey, "secret that signs download links (serve; default: one generated once and kept in the database); never a flag, so it stays out of process lists"},
	{envTranslateKey, "API key of the --translate-url server (serve)"},
	{envLogLevel, "lowest level logged: debug, info (default), warn or error (every command)"},
	{envPprofAddr, "loopback address of net/http/pprof, in binaries built with -tags pprof only"},
	{"GOGC", "Go's garbage collection target; serve sets 200 when it is unset (see the log line \"migrated\")"},
}

// envPprofAddr is read by pprof.go, in builds with the pprof tag.
const envPprofAddr = "QUIRE_PPROF_ADDR"

// findCommand returns the command that args start with, and the rest of
// args.
func findCommand(args []string) (*command, []string) {
	var best *command
	n := 0
	for i := range commands {
		words := strings.Fields(commands[i].name)
		if len(words) > n && len(args) >= len(words) && strings.Join(args[:len(words)], " ") == commands[i].name {
			best, n = &commands[i], len(words)
		}
	}
	return best, args[n:]
}

// commandNamed returns the command of a flag set named "quire NAME".
func commandNamed(fsName string) *command {
	for i := range commands {
		if "quire "+commands[i].name == fsName {
			return &commands[i]
		}
	}
	return nil
}

// flagSet builds c's flags as a run of c declares them, with no
// environment (so defaults are the built-in ones) and no side effect: the
// run stops where it would parse.
func (c *command) flagSet() *flag.FlagSet {
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }, inspect: true}
	c.run(e, context.Background(), nil)
	if e.inspected == nil {
		panic("command " + c.name + " declares no flag set")
	}
	return e.inspected
}

// synopsis is c's usage line: its arguments, then every other flag.
func (c *command) synopsis(fs *flag.FlagSet) string {
	parts := []string{"quire " + c.name}
	if c.args != "" {
		parts = append(parts, c.args)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if strings.Contains(" "+c.args+" ", "--"+f.Name+" ") || strings.Contains(c.args, "(--"+f.Name+" ") {
			return
		}
		if isBool(f) {
			parts = append(parts, "[--"+f.Name+"]")
			return
		}
		parts = append(parts, "[--"+f.Name+" "+valueName(f)+"]")
	})
	return strings.Join(parts, " ")
}

// isBool tells whether f takes no value (--flag alone sets it).
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// valueName is the placeholder of f's value: the `quoted` word of its
// usage, or its type.
func valueName(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	switch name {
	case "", "value", "string":
		return "VALUE"
	}
	return strings.ToUpper(name)
}

// wrap breaks text into lines of at most width columns, each after the
// first starting with indent.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	col := 0
	for i, w := range strings.Fields(text) {
		if i > 0 && col+1+len(w) > width {
			b.WriteString("\n" + indent)
			col = len(indent)
		} else if i > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// envOfFlag finds the environment variable a flag's usage names first.
var envOfFlag = regexp.MustCompile(`env (QUIRE_[A-Z0-9_]+)`)

// usage writes the help of the commands whose names start with prefix
// (all of them for ""), and for the top level the environment variables.
func usage(w io.Writer, prefix string) {
	fmt.Fprint(w, "Usage:\n")
	type envFlag struct{ cmds, flag, def string }
	envs := map[string]*envFlag{}
	for i := range commands {
		c := &commands[i]
		fs := c.flagSet()
		fs.VisitAll(func(f *flag.Flag) {
			m := envOfFlag.FindStringSubmatch(f.Usage)
			if m == nil {
				return
			}
			if ef := envs[m[1]]; ef != nil {
				if !strings.Contains(ef.cmds, strings.Fields(c.name)[0]) {
					ef.cmds += ", " + strings.Fields(c.name)[0]
				}
				return
			}
			envs[m[1]] = &envFlag{cmds: strings.Fields(c.name)[0], flag: f.Name, def: f.DefValue}
		})
		if prefix != "" && c.name != prefix && !strings.HasPrefix(c.name, prefix+" ") {
			continue
		}
		fmt.Fprintf(w, "  %s\n      %s\n", wrap(c.synopsis(fs), 76, "        "), wrap(c.summary, 72, "      "))
	}
	fmt.Fprint(w, "  quire help\n      This help; \"quire COMMAND --help\" describes a command's flags.\n")
	if prefix != "" {
		return
	}
	fmt.Fprint(w, "\nEnvironment (a flag given wins over its variable):\n")
	names := make([]string, 0, len(envs))
	for n := range envs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ef := envs[n]
		text := "--" + ef.flag + " of " + ef.cmds
		if ef.def != "" {
			text += " (default " + ef.def + ")"
		}
		fmt.Fprintf(w, "  %s\n      %s\n", n, wrap(text, 72, "      "))
	}
	for _, v := range envOnly {
		fmt.Fprintf(w, "  %s\n      %s\n", v.name, wrap(v.text, 72, "      "))
	}
	fmt.Fprint(w, "\nLogs are JSON lines on stderr; admin commands print exactly one JSON object\non stdout (admin jobs list and show print a table unless --json).\n")
}
