//go:build unix

package apiservertest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// children are the processes started and still running, for stopAll.
// Once closed, startProcess starts no more.
var children struct {
	sync.Mutex
	closed bool
	set    map[*process]struct{}
}

// errStopping reports a process start after stopAll.
var errStopping = errors.New("apiservertest: stopping: no new process")

// stopAll stops every running child process and lets no more start.
func stopAll() error {
	children.Lock()
	children.closed = true
	running := make([]*process, 0, len(children.set))
	for p := range children.set {
		running = append(running, p)
	}
	children.Unlock()
	var errs []error
	for _, p := range running {
		errs = append(errs, p.stop(stopTimeout))
	}
	return errors.Join(errs...)
}

// track adds p to children, unless stopAll has run: then it reports false.
func (p *process) track() bool {
	children.Lock()
	defer children.Unlock()
	if children.closed {
		return false
	}
	if children.set == nil {
		children.set = make(map[*process]struct{})
	}
	children.set[p] = struct{}{}
	return true
}

// untrack removes p from children.
func (p *process) untrack() {
	children.Lock()
	defer children.Unlock()
	delete(children.set, p)
}

// process is a child process running in its own process group, its
// output going to a log file.
type process struct {
	name string
	log  string        // path of the log file
	pid  int           // also the process group's id
	done chan struct{} // closed when the process has exited
	err  error         // how it exited; read after done is closed
}

// startProcess starts path with args, its stdout and stderr appended to
// logPath. The process leads a new process group and gets SIGKILL when
// the thread that started it exits (on Linux): that thread is locked to
// a goroutine that waits for the process, so the signal comes only when
// the whole test binary dies.
func startProcess(name, path string, args []string, logPath string) (*process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	p := &process{name: name, log: logPath, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // held until the process exits: see sysProcAttr
		defer logFile.Close()
		cmd := exec.Command(path, args...)
		cmd.Stdout, cmd.Stderr = logFile, logFile
		cmd.SysProcAttr = sysProcAttr()
		if err := cmd.Start(); err != nil {
			started <- err
			runtime.UnlockOSThread()
			return
		}
		p.pid = cmd.Process.Pid
		started <- nil
		p.err = cmd.Wait()
		runtime.UnlockOSThread()
		close(p.done)
		p.untrack()
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("apiservertest: start %s: %w", name, err)
	}
	if !p.track() {
		return nil, errors.Join(errStopping, p.stop(stopTimeout))
	}
	return p, nil
}

// exited returns nil while the process runs and an error saying how it
// exited once it has.
func (p *process) exited() error {
	select {
	case <-p.done:
		return p.exitError()
	default:
		return nil
	}
}

func (p *process) exitError() error {
	if p.err == nil {
		return fmt.Errorf("apiservertest: %s exited", p.name)
	}
	return fmt.Errorf("apiservertest: %s exited: %w", p.name, p.err)
}

// stop kills the process's group and waits for the process to exit, at
// most timeout.
func (p *process) stop(timeout time.Duration) error {
	if err := syscall.Kill(-p.pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("apiservertest: kill %s: %w", p.name, err)
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("apiservertest: %s (pid %d) still running %v after SIGKILL", p.name, p.pid, timeout)
	}
}

// logTail returns the last n lines of the process's log.
func (p *process) logTail(n int) string {
	data, err := os.ReadFile(p.log)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", p.log, err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
