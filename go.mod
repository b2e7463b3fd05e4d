module github.com/companyregistry/registry

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/google/jsonschema-go v0.4.3
	github.com/jarcoal/httpmock v1.4.2
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/sync v0.22.0
)

require golang.org/x/text v0.14.0 // indirect
