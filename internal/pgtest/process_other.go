//go:build !linux

package pgtest

import (
	"fmt"
	"os/exec"
)

type account struct{}

// runAs reports that this package starts PostgreSQL on Linux only.
func runAs() (*account, error) {
	return nil, fmt.Errorf("%w (pgtest starts PostgreSQL on Linux only)", ErrMissing)
}

func (a *account) own(string) error    { return nil }
func (a *account) apply(cmd *exec.Cmd) {}

type process struct{}

func spawn(string, []string, string, *account) (*process, error) { return nil, ErrMissing }
func (p *process) exited() bool                                  { return true }
func (p *process) stop()                                         {}
