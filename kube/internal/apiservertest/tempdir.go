//go:build unix

package apiservertest

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// tempPrefix begins the name of each test binary's temporary folder,
// made in os.TempDir(): etcd's data, certificates, tokens and logs.
const tempPrefix = "nodeplan-apiserver-"

// pidFile, in the temporary folder, names its owner: the test binary's
// process id and a newline.
const pidFile = "owner.pid"

// makeTempDir creates a temporary folder in parent with its PID file.
func makeTempDir(parent string) (string, error) {
	dir, err := os.MkdirTemp(parent, tempPrefix)
	if err != nil {
		return "", err
	}
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	if err := os.WriteFile(filepath.Join(dir, pidFile), pid, 0o600); err != nil {
		return "", errors.Join(err, os.RemoveAll(dir))
	}
	return dir, nil
}

// sweep removes the temporary folders in parent whose PID file names a
// process that no longer exists: those of test binaries that were killed
// or timed out. It keeps every other folder: one whose owner runs (another
// test binary of the same `go test`), and one without a whole PID file
// (its owner may be writing it, or be an older version of this package).
// A PID reused by another process keeps a dead owner's folder until that
// process ends. It returns the folders it removed.
func sweep(parent string) ([]string, error) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		pid, ok := owner(dir)
		if !ok || alive(pid) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, dir)
	}
	return removed, errors.Join(errs...)
}

// owner returns the process id dir's PID file names, and whether it
// names one: the file is whole (ends in a newline) and holds a number
// above 0 (kill(2) reads 0 and -1 as groups of processes).
func owner(dir string) (int, bool) {
	data, err := os.ReadFile(filepath.Join(dir, pidFile))
	if err != nil {
		return 0, false
	}
	text, whole := strings.CutSuffix(string(data), "\n")
	pid, err := strconv.Atoi(text)
	return pid, whole && err == nil && pid > 0
}

// alive reports whether process pid exists: signal 0 reaches it, or is
// refused because another user owns it.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// cleanup stops every child process and removes the temporary folder,
// once, from Main's end or from a signal, whichever comes first.
type cleanup struct {
	dir  string
	once sync.Once
	err  error
}

// run cleans up on its first call; every call returns the first's error.
func (c *cleanup) run() error {
	c.once.Do(func() { c.err = errors.Join(stopAll(), os.RemoveAll(c.dir)) })
	return c.err
}

// onSignal runs c when the test binary gets SIGINT (Ctrl-C), SIGTERM or
// SIGHUP, then lets the signal end the test binary as it would have.
// Calling the returned function stops watching.
func onSignal(c *cleanup) (stop func()) {
	sigs := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-sigs:
			if err := c.run(); err != nil {
				fmt.Fprintf(os.Stderr, "apiservertest: %v: %v\n", sig, err)
			}
			fmt.Fprintf(os.Stderr, "apiservertest: %v: stopped the API server and removed %s\n", sig, c.dir)
			signal.Reset(sig)
			_ = syscall.Kill(os.Getpid(), sig.(syscall.Signal))
			time.Sleep(time.Second) // the signal's default action ends the process
			os.Exit(1)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
