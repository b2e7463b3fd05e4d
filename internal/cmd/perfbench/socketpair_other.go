//go:build !unix

package main

import (
	"errors"
	"os"
)

// socketpair is Unix only.
func socketpair() (client, server *os.File, err error) {
	return nil, nil, errors.New("-socketpair: Unix only")
}
