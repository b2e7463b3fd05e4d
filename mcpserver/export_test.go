package mcpserver

// WithoutFastPath makes [Handler] and [ServeIO] send every request through
// the SDK (no HTTP fast path, no list cache), so that tests can compare the
// fast paths with it.
func WithoutFastPath() Option {
	return func(o *options) error {
		o.noFastPath = true
		return nil
	}
}
