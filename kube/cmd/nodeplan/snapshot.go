package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
)

// snapshot is what consolidate and drift read: the loaded manifests, the
// catalog and the instant to decide at.
type snapshot struct {
	cluster kube.Cluster
	catalog *instancetypes.Catalog
	now     time.Time
	// nowFrom says where now came from: "--now", "newest creationTimestamp"
	// or "clock" (no flag and no timestamp in the input).
	nowFrom string
	prices  pricing
}

// start parses the flags of a table-or-JSON command and loads its snapshot.
func start(name string, args []string, stdin io.Reader, stderr io.Writer) (config, snapshot, error) {
	c, err := parseFlags(name, args, "table", "json")
	if err != nil {
		return c, snapshot{}, err
	}
	c.cluster.progress = stderr
	s, err := load(c, stdin, time.Now)
	return c, s, err
}

// tabler is a report that can print itself as a table.
type tabler interface{ writeTable(io.Writer) error }

// emit writes r as JSON or as its table.
func emit(output string, r tabler, w io.Writer) error {
	if output == "json" {
		return writeJSON(r, w)
	}
	return r.writeTable(w)
}

// load reads the manifests and catalog of c and resolves now: --now when
// given, else the newest creationTimestamp of the input (kube.Cluster.Newest),
// else, for input without any timestamp, the clock — the only case where
// the output depends on when it runs.
func load(c config, stdin io.Reader, clock func() time.Time) (snapshot, error) {
	var s snapshot
	var err error
	if s.cluster, err = loadCluster(c, stdin); err != nil {
		return snapshot{}, err
	}
	if s.catalog, err = clusterCatalog(c, &s.cluster); err != nil {
		return snapshot{}, err
	}
	warnings, err := s.cluster.OverlayWarnings(s.catalog)
	if err != nil {
		return snapshot{}, err
	}
	s.cluster.Warnings = append(s.cluster.Warnings, warnings...)
	s.prices = pricingOf(s.catalog, c)
	s.now, s.nowFrom, err = resolveNow(c.now, &s.cluster, len(c.files) == 0, clock)
	return s, err
}

// resolveNow returns the instant to decide at and the rule that gave it:
// --now, else for a cluster read live the clock (its state is now's),
// else the newest creationTimestamp of the files, else the clock.
func resolveNow(flagValue string, cl *kube.Cluster, live bool, clock func() time.Time) (time.Time, string, error) {
	if flagValue != "" {
		t, err := time.Parse(time.RFC3339, flagValue)
		if err != nil {
			return t, "", fmt.Errorf("--now %q: want an RFC 3339 time such as 2025-01-01T00:00:00Z", flagValue)
		}
		return t.UTC(), "--now", nil
	}
	if live {
		return clock().UTC().Truncate(time.Second), "clock", nil
	}
	if t, err := cl.Newest(); err == nil {
		return t.UTC(), "newest creationTimestamp", nil
	}
	return clock().UTC().Truncate(time.Second), "clock", nil
}

// fail prints err for the subcommand and returns the bad-input code; a
// request for help prints the usage on stdout and succeeds.
func fail(name string, err error, stdout, stderr io.Writer) int {
	var h *helpRequested
	switch {
	case errors.As(err, &h):
		fmt.Fprint(stdout, h.usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "nodeplan %s: %v\n", name, err)
	}
	return exitBadInput
}

func writeJSON(v any, w io.Writer) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// writeNotes writes the price notes, then a blank line.
func writeNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
}

// section is a table printed after a blank line, its header before its
// first row; a section without rows prints nothing.
type section struct {
	tw     *tabwriter.Writer
	header string
	rows   int
}

func newSection(w io.Writer, header string) *section {
	return &section{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), header: header}
}

// row prints one tab-separated row (format without the newline).
func (s *section) row(format string, args ...any) {
	if s.rows == 0 {
		fmt.Fprintf(s.tw, "\n%s\n", s.header)
	}
	s.rows++
	fmt.Fprintf(s.tw, format+"\n", args...)
}

func (s *section) flush() { s.tw.Flush() }
