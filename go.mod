module github.com/companyregistry/registry

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/sync v0.22.0
)

require github.com/jarcoal/httpmock v1.4.2
