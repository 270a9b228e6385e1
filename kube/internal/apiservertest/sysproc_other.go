//go:build unix && !linux

package apiservertest

import "syscall"

// sysProcAttr puts the child in its own process group. Without Linux's
// parent-death signal a killed test binary leaves its children running.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
