package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"runtime"
	"strconv"
	"syscall"
)

// account is the user the server runs as: the current one, or an
// unprivileged one when the tests run as root.
type account struct {
	set      bool
	uid, gid uint32
}

// runAs returns the account to run PostgreSQL as. PostgreSQL refuses to run
// as root (CI and this project's machines run as root), so root hands the
// server to the "postgres" user that Debian's package creates, or to
// "nobody".
func runAs() (*account, error) {
	if os.Geteuid() != 0 {
		return &account{}, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil {
			continue
		}
		return &account{set: true, uid: uint32(uid), gid: uint32(gid)}, nil
	}
	return nil, errors.New("pgtest: the tests run as root, which PostgreSQL refuses, and there is neither a postgres nor a nobody user to run it as")
}

// own gives dir to the account.
func (a *account) own(dir string) error {
	if !a.set {
		return nil
	}
	return os.Chown(dir, int(a.uid), int(a.gid))
}

// apply makes cmd run as the account.
func (a *account) apply(cmd *exec.Cmd) {
	if !a.set {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid}
}

// process is a running postgres. It is watched without a goroutine (exited
// asks the kernel), so a test binary's goroutine check sees none.
type process struct {
	cmd    *exec.Cmd
	reaped bool
}

// spawn starts bin with args, its output appended to logPath. The server
// gets SIGQUIT (PostgreSQL's immediate shutdown) if the test binary dies
// without stopping it, so a panicking or timed-out test leaves no server
// behind.
func spawn(bin string, args []string, logPath string, user *account) (*process, error) {
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGQUIT}
	user.apply(cmd)
	// The parent-death signal is sent when the thread that started the
	// child exits; a locked thread is not one the runtime ends.
	runtime.LockOSThread()
	err = cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	return &process{cmd: cmd}, nil
}

// exited reports whether the server has exited (and reaps it then).
func (p *process) exited() bool {
	if p.reaped {
		return true
	}
	var ws syscall.WaitStatus
	pid, err := syscall.Wait4(p.cmd.Process.Pid, &ws, syscall.WNOHANG, nil)
	if pid == p.cmd.Process.Pid || err != nil {
		p.reaped = true
	}
	return p.reaped
}

// stop shuts the server down at once (SIGQUIT: no checkpoint, which a
// throwaway server does not need) and waits for it.
func (p *process) stop() {
	if p.exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	_ = p.cmd.Wait()
	p.reaped = true
}
