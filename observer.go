package registry

import "errors"

// FetchObserver is told what the Registry's upstream fetches do, for
// metrics (see [WithFetchObserver]); the metrics package implements it.
// Its methods are called on the request path: they must be fast, safe for
// concurrent use and must not panic. Arguments are country codes, never an
// identifier or a query.
type FetchObserver interface {
	// FetchCollapsed is called once for each lookup or search of country
	// that missed the cache and got its answer (or error) from a fetch that
	// another call had already started for the same key, instead of
	// calling the register itself. A call that gives up before that fetch
	// ends is not counted.
	FetchCollapsed(country string)
}

// WithFetchObserver sets the observer of the upstream fetches (default
// none).
func WithFetchObserver(o FetchObserver) Option {
	return func(opts *options) error {
		if o == nil {
			return errors.New("registry: WithFetchObserver: nil observer")
		}
		opts.observer = o
		return nil
	}
}
