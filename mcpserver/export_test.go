package mcpserver

// WithoutFastPath makes [Handler] send every request through the SDK, so
// that tests can compare the fast path with it.
func WithoutFastPath() Option {
	return func(o *options) error {
		o.noFastPath = true
		return nil
	}
}
