//go:build unix

package apiservertest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadPID is no process: Linux's process ids stay below 1<<22
// (PID_MAX_LIMIT), other Unix systems' lower still.
const deadPID = 1 << 22

func TestSweep(t *testing.T) {
	self := strconv.Itoa(os.Getpid())
	dead := strconv.Itoa(deadPID)
	tests := []struct {
		name    string
		folder  string // the folder's name in the parent
		pidFile *string
		removed bool
	}{
		{name: "dead owner", folder: tempPrefix + "1", pidFile: ptr(dead + "\n"), removed: true},
		{name: "live owner", folder: tempPrefix + "2", pidFile: ptr(self + "\n")},
		{name: "live owner of another user", folder: tempPrefix + "3", pidFile: ptr("1\n")},
		{name: "no PID file", folder: tempPrefix + "4"},
		{name: "PID file being written", folder: tempPrefix + "5", pidFile: ptr(dead)},
		{name: "empty PID file", folder: tempPrefix + "6", pidFile: ptr("")},
		{name: "PID 0, a process group", folder: tempPrefix + "7", pidFile: ptr("0\n")},
		{name: "PID -1, every process", folder: tempPrefix + "8", pidFile: ptr("-1\n")},
		{name: "not a number", folder: tempPrefix + "9", pidFile: ptr("x\n")},
		{name: "another prefix", folder: "nodeplan-other-1", pidFile: ptr(dead + "\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, tc.folder)
			require.NoError(t, os.Mkdir(dir, 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "etcd.log"), []byte("data"), 0o600))
			if tc.pidFile != nil {
				require.NoError(t, os.WriteFile(filepath.Join(dir, pidFile), []byte(*tc.pidFile), 0o600))
			}
			removed, err := sweep(parent)
			require.NoError(t, err)
			_, statErr := os.Stat(dir)
			if tc.removed {
				assert.Equal(t, []string{dir}, removed)
				assert.True(t, os.IsNotExist(statErr), "%s still there: %v", dir, statErr)
				return
			}
			assert.Empty(t, removed)
			assert.NoError(t, statErr, "%s removed", dir)
		})
	}
}

// TestMakeTempDir checks the folder makeTempDir makes names its owner, so
// that sweep keeps it while this test runs.
func TestMakeTempDir(t *testing.T) {
	parent := t.TempDir()
	dir, err := makeTempDir(parent)
	require.NoError(t, err)
	pid, ok := owner(dir)
	assert.True(t, ok)
	assert.Equal(t, os.Getpid(), pid)
	removed, err := sweep(parent)
	require.NoError(t, err)
	assert.Empty(t, removed)
	assert.DirExists(t, dir)
}

func ptr(s string) *string { return &s }
