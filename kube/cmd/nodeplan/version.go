package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version prints the version of the nodeplan module this binary was built
// from: the module version its build information records, else "devel"
// with the VCS revision of the checkout when the build recorded it (see
// the command doc for why a release version is not recorded today).
func version(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "nodeplan version: takes no arguments, got %q\n", args)
		return exitBadInput
	}
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionLine(info, ok))
	return exitOK
}

// versionLine formats build info as "nodeplan VERSION [(revision R[, modified])] GOVERSION".
func versionLine(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "nodeplan devel (no build information)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	rev, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		v += " (revision " + rev
		if modified {
			v += ", modified"
		}
		v += ")"
	}
	return fmt.Sprintf("nodeplan %s %s", v, info.GoVersion)
}
