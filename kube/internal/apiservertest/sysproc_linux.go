package apiservertest

import "syscall"

// sysProcAttr puts the child in its own process group and has the kernel
// SIGKILL it when the thread that forked it exits. That thread must stay
// alive as long as the child should: startProcess locks it to the
// goroutine that waits for the child.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
