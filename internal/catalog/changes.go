package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	registry "github.com/companyregistry/registry"
	"github.com/companyregistry/registry/changes"
	"github.com/companyregistry/registry/changes/webhook"
	"github.com/companyregistry/registry/schema"
)

// Change monitoring's operations: watches, the change feed, deliveries
// (behind an API token), and one company's recorded changes. The adapters
// serve them only when they are given a changes.Service
// (restserver.WithChanges, mcpserver.WithChanges); the texts describe them
// only then ([TextInputs.Changes]).
//
//	operation         REST                                                      MCP
//	createWatch       POST /v1/watches                                          -
//	listWatches       GET /v1/watches                                           -
//	getWatch          GET /v1/watches/{id}                                      -
//	updateWatch       PATCH /v1/watches/{id}                                    -
//	deleteWatch       DELETE /v1/watches/{id}                                   -
//	testWatch         POST /v1/watches/{id}/test                                -
//	rotateWatchSecret POST /v1/watches/{id}/secret                              -
//	listDeliveries    GET /v1/watches/{id}/deliveries                           -
//	redeliver         POST /v1/watches/{id}/deliveries/{delivery}/redeliver     -
//	changeFeed        GET /v1/changes                                           -
//	companyChanges    GET /v1/{country}/company/{id}/changes                    company_changes

// The documents of change monitoring, in /openapi.json and /llms-full.txt.
const (
	DocWatchRequest   = "WatchRequest"
	DocWatchPatch     = "WatchPatch"
	DocWatch          = "Watch"
	DocCreatedWatch   = "CreatedWatch"
	DocUpdatedWatch   = "UpdatedWatch"
	DocWatchList      = "WatchList"
	DocChange         = "Change"
	DocChangeFeed     = "ChangeFeed"
	DocDelivery       = "Delivery"
	DocDeliveryList   = "DeliveryList"
	DocTestResult     = "TestResult"
	DocRotatedSecret  = "RotatedSecret"
	DocCompanyChanges = "CompanyChanges"
	DocWebhookEvent   = "WebhookEvent"
)

// The identifiers in the recorded examples of change monitoring: what the
// example deployment (restserver's TestOpenAPIExamplesAreRealAnswers: a
// fixed clock and a seeded random source) gives its watch, its first
// delivery and its feed, used in the example requests and as the
// parameters' examples. The test fails when the deployment gives others.
const (
	ExampleWatchID    = "wch_01KF0E44M0BW8ZDFHVFDDJJTZ6"
	ExampleDeliveryID = "dlv_01KF0HNNE0QB36VYXCAGGXK381"
	ExampleCursor     = "AQAAAAAAAAABhnUwew"
)

// ToolCompanyChanges is the MCP tool of a company's recorded changes.
const ToolCompanyChanges = "company_changes"

// BearerScheme is the name of the API token's security scheme in
// /openapi.json.
const BearerScheme = "apiToken"

// ChangeDocuments returns the names of change monitoring's documents, in
// the order of /llms-full.txt.
func ChangeDocuments() []string {
	return []string{DocWatchRequest, DocWatchPatch, DocCreatedWatch, DocWatch, DocUpdatedWatch, DocWatchList, DocChangeFeed,
		DocChange, DocDeliveryList, DocDelivery, DocTestResult, DocRotatedSecret, DocCompanyChanges, DocWebhookEvent}
}

// ChangeOperations returns change monitoring's operations in the order of
// the reference.
func ChangeOperations() []Operation {
	watchID := Param{Name: "id", In: InPath, Required: true, Doc: "The watch's id (wch_…), as its creation answered.",
		Schema: ParamSchema{Type: "string", MinLength: ptr(1), Examples: []any{ExampleWatchID}}}
	limit := func(def, most int, arg bool) Param {
		p := Param{Name: "limit", In: InQuery, Doc: fmt.Sprintf("Most items to return, 1 to %d (default %d).", most, def),
			Schema: ParamSchema{Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(most)), Default: strconv.Itoa(def),
				Examples: []any{def}}}
		if arg {
			p.Arg = &Arg{Name: "limit", Default: strconv.Itoa(def),
				Doc: fmt.Sprintf("Most changes to return, newest first: an integer from 1 to %d. Default %d.", most, def)}
		}
		return p
	}
	auth := []registry.Code{registry.CodeUnauthorized, registry.CodeForbidden}
	withAuth := func(codes ...registry.Code) []registry.Code {
		return append(append(codes, auth...), registry.CodeRateLimited, registry.CodeInternalError)
	}
	const one = "one request"
	kinds := kindNames()
	return []Operation{
		{Name: "createWatch", Method: "POST", Pattern: "/v1/watches", Tag: TagWatches, ExamplePath: "/v1/watches", Summary: "Create a watch",
			Doc: fmt.Sprintf("Watch up to %d companies of one country: their changes are recorded for you (GET "+
				"/v1/changes) and sent to url as signed webhooks (Standard Webhooks 1.0). Identifiers are validated "+
				"per country and canonicalised; duplicates collapse. kinds is optional (every kind when absent or "+
				"[]): %s. url must be https, of a host with a public address, at most %d bytes, without user-info. "+
				"A baseline of each company is taken before answering, so that the first event is a real change; "+
				"companies whose register failed or was slow are listed in baseline_pending and get theirs shortly. "+
				"The answer carries the signing secret (whsec_…) this one time: keep it. 201 on success.",
				changes.MaxIDsPerWatch, kinds, webhook.MaxURLLength),
			Body: DocWatchRequest, BodyExample: `{"country": "NO", "ids": ["923609016"], "kinds": ["status_changed"], "url": "https://hooks.example.com/registry"}`,
			Result: DocCreatedWatch, Status: 201, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeBadRequest, registry.CodeInvalidID, registry.CodeNotFound, registry.CodeUnsupportedCountry,
				registry.CodeUpstreamError)},
		{Name: "listWatches", Method: "GET", Pattern: "/v1/watches", Tag: TagWatches, ExamplePath: "/v1/watches", Summary: "List your watches",
			Doc:    "The watches of your API token, oldest first. A watch another token created is never shown.",
			Result: DocWatchList, Changes: true, Auth: true, Limited: true, Cost: one, Errors: withAuth()},
		{Name: "getWatch", Method: "GET", Pattern: "/v1/watches/{id}", Tag: TagWatches, ExamplePath: "/v1/watches/" + ExampleWatchID,
			Summary: "Get a watch",
			Doc: "One of your watches. disabled is true once its endpoint answered 410 or failed every attempt of a " +
				"delivery for about three days; disabled_reason says which. The secret is never shown again.",
			Params: []Param{watchID}, Result: DocWatch, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeNotFound)},
		{Name: "updateWatch", Method: "PATCH", Pattern: "/v1/watches/{id}", Tag: TagWatches, ExamplePath: "/v1/watches/" + ExampleWatchID,
			Summary: "Change a watch",
			Doc: fmt.Sprintf("Add companies (add_ids, validated, baselines taken as on creation), remove companies "+
				"(remove_ids), replace kinds ([] for every kind) or url (validated as on creation), or enable a "+
				"disabled watch with \"disabled\": false (a new url also enables it). A watch keeps 1 to %d companies.",
				changes.MaxIDsPerWatch),
			Params: []Param{watchID}, Body: DocWatchPatch, BodyExample: `{"add_ids": ["974760673"], "remove_ids": ["923609016"]}`,
			Result: DocUpdatedWatch, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeBadRequest, registry.CodeInvalidID, registry.CodeNotFound, registry.CodeUpstreamError)},
		{Name: "deleteWatch", Method: "DELETE", Pattern: "/v1/watches/{id}", Tag: TagWatches, Summary: "Delete a watch",
			Doc:    "Deletes the watch and its pending deliveries; its recorded changes stay in your feed. 204, no body.",
			Params: []Param{watchID}, Result: "no content", Status: 204, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeNotFound)},
		{Name: "testWatch", Method: "POST", Pattern: "/v1/watches/{id}/test", Tag: TagWatches,
			ExamplePath: "/v1/watches/" + ExampleWatchID + "/test", Summary: "Send a test event",
			Doc: "Sends one signed event of type watch.test to the watch's url now (also when the watch is disabled) " +
				"and says what the endpoint answered: delivered is true for a 2xx. The event is not a change: it is not " +
				"stored, retried or put in the feed; its webhook-id starts tst_. No body.",
			Params: []Param{watchID}, Result: DocTestResult, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeNotFound)},
		{Name: "rotateWatchSecret", Method: "POST", Pattern: "/v1/watches/{id}/secret", Tag: TagWatches,
			ExamplePath: "/v1/watches/" + ExampleWatchID + "/secret", Summary: "Rotate a watch's signing secret",
			Doc: fmt.Sprintf("Gives the watch a new signing secret (whsec_…), shown in this answer only, for a secret that leaked "+
				"or is due for a change; the watch keeps its companies, baselines and deliveries. The secret it replaces keeps "+
				"signing beside the new one for the deployment's overlap (%d hours unless its operator set another), until "+
				"previous_secret_expires_at: every webhook meanwhile (deliveries, "+
				"redeliveries, test events) carries its signature in webhook-signature after the new secret's, and a receiver "+
				"accepts the one that matches its secret, so it can switch at any time in that overlap. Rotating again within it "+
				"keeps each replaced secret signing until its own end, newest first (a rotation retried after a lost answer "+
				"leaves the receiver's secret signing), at most %d of them: a third rotation within it ends the oldest at once. "+
				"A disabled watch rotates too. No body, or {}. "+
				"not_implemented (501) where the deployment's store cannot rotate secrets.", int(changes.DefaultSecretOverlap.Hours()),
				changes.MaxPreviousSecrets),
			Params: []Param{watchID}, Result: DocRotatedSecret, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeBadRequest, registry.CodeNotFound, registry.CodeNotImplemented)},
		{Name: "listDeliveries", Method: "GET", Pattern: "/v1/watches/{id}/deliveries", Tag: TagWatches,
			ExamplePath: "/v1/watches/" + ExampleWatchID + "/deliveries", Summary: "List a watch's deliveries",
			Doc: "The webhooks of the watch, newest first: each change sent (or to be sent) to its url, with its " +
				"state (pending, succeeded, failed), attempts, the last status code or error and the next attempt.",
			Params: []Param{watchID, limit(changes.DefaultDeliveriesLimit, changes.MaxDeliveriesLimit, false)},
			Result: DocDeliveryList, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeBadRequest, registry.CodeNotFound)},
		{Name: "redeliver", Method: "POST", Pattern: "/v1/watches/{id}/deliveries/{delivery}/redeliver", Tag: TagWatches,
			ExamplePath: "/v1/watches/" + ExampleWatchID + "/deliveries/" + ExampleDeliveryID + "/redeliver", Summary: "Send a delivery again",
			Doc: "Queues one delivery for an attempt now, with the same webhook-id, whatever its state (a receiver " +
				"dedupes on it). A delivery that had used up its retries gets one attempt. 202 with the delivery as queued. No body. " +
				"A disabled watch is sent nothing, so its deliveries are not queued (bad_request): enable it first.",
			Params: []Param{watchID, {Name: "delivery", In: InPath, Required: true, Doc: "The delivery's id (dlv_…) from the list of deliveries.",
				Schema: ParamSchema{Type: "string", MinLength: ptr(1), Examples: []any{ExampleDeliveryID}}}},
			Result: DocDelivery, Status: 202, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeBadRequest, registry.CodeNotFound)},
		{Name: "changeFeed", Method: "GET", Pattern: "/v1/changes", Tag: TagChanges, ExamplePath: "/v1/changes", Summary: "Your change feed",
			Doc: "The changes of the companies in your watches (while they were watched), of the kinds those watches ask " +
				"for, oldest first, after cursor. " +
				"Pass next_cursor as the cursor of the next call, also after an empty page; a cursor survives restarts. " +
				"Changes are kept at least 30 days: an older cursor is cursor_expired (410) with details.oldest_cursor. " +
				"The feed is the recovery path for webhooks missed.",
			Params: []Param{
				{Name: "cursor", In: InQuery, Doc: fmt.Sprintf("next_cursor of the previous page; absent for the oldest change kept (at most %d characters).",
					changes.MaxCursorLength), Schema: ParamSchema{Type: "string", MaxLength: ptr(changes.MaxCursorLength), Examples: []any{ExampleCursor}}},
				limit(changes.DefaultFeedLimit, changes.MaxFeedLimit, false)},
			Result: DocChangeFeed, Changes: true, Auth: true, Limited: true, Cost: one,
			Errors: withAuth(registry.CodeBadRequest, registry.CodeCursorExpired)},
		{Name: "companyChanges", Method: "GET", Pattern: "/v1/{country}/company/{id}/changes", Tag: TagChanges,
			ExamplePath: "/v1/NO/company/923609016/changes", Summary: "A company's recorded changes",
			Doc: "The changes recorded for one company, newest first: any company a watch follows and, where the register " +
				"publishes a change feed (Norway), any company in it. Needs no token. The identifier is validated but the " +
				"register is not called; an empty list carries a note.",
			Params: []Param{
				{Name: "id", In: InPath, Required: true, Doc: "National identifier; spaces, dots, a leading country prefix and (Norway) a trailing MVA are accepted.",
					Schema: ParamSchema{Type: "string", MinLength: ptr(1), Examples: []any{"923609016"}},
					Arg:    &Arg{Name: "id", Required: true, Doc: "The company's national identifier, e.g. 923609016 (NO)."}},
				{Name: "country", In: InPath, Required: true, Doc: "ISO 3166-1 alpha-2 country code from GET /v1/countries, any letter case.",
					Schema: ParamSchema{Type: "string", MinLength: ptr(2), MaxLength: ptr(2), Examples: []any{"NO"}},
					Arg: &Arg{Name: "country", Default: strconv.Quote(DefaultCountry),
						Doc: "ISO 3166-1 alpha-2 country code, any case (GB for the United Kingdom). Default " + DefaultCountry + "."}},
				limit(changes.DefaultCompanyChangesLimit, changes.MaxCompanyChangesLimit, true)},
			Result: DocCompanyChanges, Changes: true, Limited: true, Cost: one,
			Errors: []registry.Code{registry.CodeInvalidID, registry.CodeBadRequest, registry.CodeUnsupportedCountry,
				registry.CodeRateLimited, registry.CodeInternalError},
			Tool: &Tool{Name: ToolCompanyChanges, Title: "A company's recorded changes",
				Description: "List the changes this service has recorded for one company, newest first: status (bankruptcy, " +
					"liquidation, dissolution), name, address, legal form, VAT registration, roles, deletion, each with old and " +
					"new values, when the register recorded it and when it was detected, and the source. Recorded for every " +
					"Norwegian company in the register's update feed and for watched companies elsewhere, from when the " +
					"service started following them; an empty list carries a note. It reads no register: use lookup_company " +
					"for the current state."}},
	}
}

// ChangeTools returns change monitoring's operations that have an MCP
// tool.
func ChangeTools() []Operation {
	var out []Operation
	for _, o := range ChangeOperations() {
		if o.Tool != nil {
			out = append(out, o)
		}
	}
	return out
}

func kindNames() string {
	s := ""
	for i, k := range changes.WatchKinds() {
		if i > 0 {
			s += ", "
		}
		s += string(k)
	}
	return s
}

// changeSchemas returns the strict schemas of change monitoring's
// documents, nested ones as $ref into the components.
func changeSchemas() map[string]*jsonschema.Schema {
	ref := func(name string) *jsonschema.Schema { return &jsonschema.Schema{Ref: schema.ComponentsRef + name} }
	str := func(desc string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: desc} }
	nullStr := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Types: []string{"string", "null"}, Description: desc}
	}
	dateTime := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Format: "date-time", Description: desc}
	}
	nullDateTime := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Types: []string{"string", "null"}, Format: "date-time", Description: desc}
	}
	strings := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: desc}
	}
	kindEnum := make([]any, 0, len(changes.WatchKinds()))
	for _, k := range changes.WatchKinds() {
		kindEnum = append(kindEnum, string(k))
	}
	watchKinds := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: kindEnum}, Description: desc}
	}
	closed := func() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }
	object := func(title, desc string, order []string, props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
		if required == nil {
			required = order
		}
		return &jsonschema.Schema{Title: title, Description: desc, Type: "object", Properties: props, PropertyOrder: order,
			Required: required, AdditionalProperties: closed()}
	}
	country := &jsonschema.Schema{Type: "string", Pattern: `^[A-Z]{2}$`, Description: "ISO 3166-1 alpha-2, upper case."}
	watchProps := func() map[string]*jsonschema.Schema {
		return map[string]*jsonschema.Schema{
			"id":              str("The watch's id (wch_ and a ULID)."),
			"country":         country,
			"ids":             strings("The canonical identifiers of the companies watched."),
			"kinds":           watchKinds("The kinds of change sent; [] is every kind, including kinds added later."),
			"url":             str("The endpoint the webhooks are sent to."),
			"created_at":      dateTime("When the watch was created."),
			"disabled":        {Type: "boolean", Description: "True once the endpoint answered 410 or failed about three days; no webhook is sent."},
			"disabled_reason": nullStr("Why the watch is disabled."),
			"disabled_at":     nullDateTime("When it was disabled."),
			"last_attempt_at": nullDateTime("When the last webhook was sent to the endpoint (any delivery of the watch); null before the first."),
			"last_status_code": {Types: []string{"integer", "null"},
				Description: "The endpoint's HTTP status at the last attempt; null when no answer came. A 4xx other than 410 is retried and shows here."},
			"last_error": nullStr("Why the last attempt failed; null when it succeeded."),
		}
	}
	watchOrder := []string{"id", "country", "ids", "kinds", "url", "created_at", "disabled", "disabled_reason", "disabled_at",
		"last_attempt_at", "last_status_code", "last_error"}
	pending := strings("Companies whose baseline is still to be taken (their register failed or was slow); no change of theirs is reported before it is.")

	created := watchProps()
	created["secret"] = str("The signing secret, whsec_ and the base64 of 32 random bytes: shown this one time.")
	created["baseline_pending"] = pending
	updated := watchProps()
	updated["baseline_pending"] = pending

	return map[string]*jsonschema.Schema{
		DocWatchRequest: object(DocWatchRequest, "The body of a watch's creation.", []string{"country", "ids", "kinds", "url"},
			map[string]*jsonschema.Schema{
				"country": {Type: "string", MinLength: ptr(2), MaxLength: ptr(2), Description: "ISO 3166-1 alpha-2 country code, any case."},
				"ids": {Type: "array", MinItems: ptr(1), Items: &jsonschema.Schema{Type: "string"},
					Description: fmt.Sprintf("National identifiers as people write them; at most %d distinct.", changes.MaxIDsPerWatch)},
				"kinds": {Types: []string{"array", "null"}, Items: &jsonschema.Schema{Type: "string", Enum: kindEnum},
					Description: "The kinds of change wanted; absent, null or [] for every kind."},
				"url": {Type: "string", Format: "uri", MaxLength: ptr(webhook.MaxURLLength), Description: "The https endpoint of the webhooks."},
			}, "country", "ids", "url"),
		DocWatchPatch: object(DocWatchPatch, "The body of a watch's change; every member is optional, at least one is needed.",
			[]string{"add_ids", "remove_ids", "kinds", "url", "disabled"},
			map[string]*jsonschema.Schema{
				"add_ids":    strings("Identifiers to add (validated; baselines taken)."),
				"remove_ids": strings("Identifiers to remove."),
				"kinds": {Types: []string{"array", "null"}, Items: &jsonschema.Schema{Type: "string", Enum: kindEnum},
					Description: "The kinds wanted from now on; [] or null for every kind."},
				"url":      {Type: "string", Format: "uri", MaxLength: ptr(webhook.MaxURLLength), Description: "A new endpoint (validated; enables the watch)."},
				"disabled": {Type: "boolean", Enum: []any{false}, Description: "false enables a disabled watch."},
			}, []string{}...),
		DocWatch: object(DocWatch, "A list of companies of one country whose changes are recorded for you and sent to your endpoint.",
			watchOrder, watchProps()),
		DocCreatedWatch: object(DocCreatedWatch, "A new watch, with its signing secret shown once.",
			[]string{"id", "secret", "country", "ids", "kinds", "url", "created_at", "disabled", "disabled_reason", "disabled_at",
				"last_attempt_at", "last_status_code", "last_error", "baseline_pending"},
			created),
		DocUpdatedWatch: object(DocUpdatedWatch, "A watch after a change.", append(append([]string{}, watchOrder...), "baseline_pending"), updated),
		DocWatchList: object(DocWatchList, "Your watches, oldest first.", []string{"watches"},
			map[string]*jsonschema.Schema{"watches": {Type: "array", Items: ref(DocWatch)}}),
		DocChange: object(DocChange, "One change of one company: the feed item and the data of a webhook.",
			[]string{"id", "country", "company_id", "company_name", "kind", "old", "new", "registered_at", "detected_at", "source_url"},
			map[string]*jsonschema.Schema{
				"id":           str("The change's id (chg_ and a ULID): the webhook-id of every delivery of it."),
				"country":      country,
				"company_id":   str("The company's canonical identifier."),
				"company_name": nullStr("The company's name after the change, when known."),
				"kind": str("What changed: status_changed (old and new are statuses such as active, bankrupt, dissolved), " +
					"name_changed, address_changed, legal_form_changed, vat_changed, roles_changed, deleted, or updated " +
					"(a register's own update that touches none of these, in a company's list only)."),
				"old":           {Description: "The value before, as JSON (a string, an object or a list); null when absent."},
				"new":           {Description: "The value after, as JSON; null when absent."},
				"registered_at": nullDateTime("When the register recorded the change, when it says."),
				"detected_at":   dateTime("When this service detected it."),
				"source_url":    nullStr("The register's document the change was read from."),
			}),
		DocChangeFeed: object(DocChangeFeed, "A page of your change feed, oldest first.", []string{"changes", "next_cursor"},
			map[string]*jsonschema.Schema{
				"changes":     {Type: "array", Items: ref(DocChange)},
				"next_cursor": str("Pass it as cursor to read on, also after an empty page."),
			}),
		DocDelivery: object(DocDelivery, "One change sent, or to be sent, to one watch's endpoint.",
			[]string{"id", "watch_id", "change_id", "status", "attempts", "next_attempt_at", "last_attempt_at", "last_status_code", "last_error", "created_at"},
			map[string]*jsonschema.Schema{
				"id":        str("The delivery's id (dlv_…)."),
				"watch_id":  str("The watch."),
				"change_id": str("The change sent: its id is the webhook-id."),
				"status": {Type: "string", Enum: []any{string(changes.DeliveryPending), string(changes.DeliverySucceeded), string(changes.DeliveryFailed)},
					Description: "pending (waiting for an attempt), succeeded (2xx) or failed (410, or every attempt failed)."},
				"attempts":         {Type: "integer", Minimum: ptr(0.0), Description: "Attempts made."},
				"next_attempt_at":  nullDateTime("When the next attempt is due; null when none is."),
				"last_attempt_at":  nullDateTime("When the last attempt was made."),
				"last_status_code": {Types: []string{"integer", "null"}, Description: "The HTTP status of the last attempt; null when none came."},
				"last_error":       nullStr("Why the last attempt failed."),
				"created_at":       dateTime("When the delivery was queued."),
			}),
		DocDeliveryList: object(DocDeliveryList, "A watch's deliveries, newest first.", []string{"deliveries"},
			map[string]*jsonschema.Schema{"deliveries": {Type: "array", Items: ref(DocDelivery)}}),
		DocTestResult: object(DocTestResult, "What the endpoint answered to a test event.",
			[]string{"webhook_id", "type", "delivered", "status_code", "error"},
			map[string]*jsonschema.Schema{
				"webhook_id":  str("The webhook-id the event was sent with (tst_…)."),
				"type":        {Type: "string", Enum: []any{changes.TestEventType}},
				"delivered":   {Type: "boolean", Description: "True when the endpoint answered 2xx."},
				"status_code": {Types: []string{"integer", "null"}, Description: "The endpoint's HTTP status; null when none came."},
				"error":       nullStr("Why the event was not delivered."),
			}),
		DocRotatedSecret: object(DocRotatedSecret, "A watch's new signing secret, shown once, and when the one it replaced stops signing.",
			[]string{"watch_id", "secret", "previous_secret_expires_at"},
			map[string]*jsonschema.Schema{
				"watch_id": str("The watch."),
				"secret":   str("The new signing secret, whsec_ and the base64 of 32 random bytes: shown this one time."),
				"previous_secret_expires_at": dateTime("Until when the secret it replaced signs too (its signature in " +
					"webhook-signature after the new secret's); from then on it does not. A third rotation within that " +
					"time ends the oldest replaced secret at once; after a rotation retried for a lost answer, the secret " +
					"before the lost one ends at the end the lost answer held."),
			}),
		DocCompanyChanges: object(DocCompanyChanges, "The recorded changes of one company, newest first.",
			[]string{"country", "company_id", "changes", "notes"},
			map[string]*jsonschema.Schema{
				"country":    country,
				"company_id": str("The company's canonical identifier."),
				"changes":    {Type: "array", Items: ref(DocChange)},
				"notes":      strings("Why the list is empty, when it is."),
			}),
		DocWebhookEvent: object(DocWebhookEvent, "The body of a webhook (Standard Webhooks payload), signed in the webhook-signature header.",
			[]string{"type", "timestamp", "data"},
			map[string]*jsonschema.Schema{
				"type":      {Type: "string", Pattern: `^company\.[a-z_]+$`, Description: "company. and the change's kind, e.g. company.status_changed."},
				"timestamp": dateTime("When the change was detected."),
				"data":      ref(DocChange),
			}),
	}
}

// changeOutputSchema returns the MCP output schema of a change monitoring
// document (see [schema.Output] for the form), or nil.
func changeOutputSchema(name string) *jsonschema.Schema {
	all := changeSchemas()
	s, ok := all[name]
	if !ok {
		return nil
	}
	defs := map[string]*jsonschema.Schema{}
	var outForm func(*jsonschema.Schema) *jsonschema.Schema
	outForm = func(s *jsonschema.Schema) *jsonschema.Schema {
		if s == nil {
			return nil
		}
		c := *s
		c.Pattern, c.MinLength, c.MaxLength, c.Minimum, c.Maximum, c.MinItems, c.AdditionalProperties = "", nil, nil, nil, nil, nil, nil
		c.Title = ""
		if c.Ref != "" {
			n := c.Ref[len(schema.ComponentsRef):]
			if defs[n] == nil {
				defs[n] = &jsonschema.Schema{} // placeholder against cycles
				defs[n] = outForm(all[n])
			}
			c.Ref = schema.DefsRef + n
		}
		if len(c.Types) == 2 && c.Types[1] == "null" {
			inner := c
			inner.Types, inner.Type, inner.Description = nil, c.Types[0], ""
			return &jsonschema.Schema{Description: c.Description, AnyOf: []*jsonschema.Schema{&inner, {Type: "null"}}}
		}
		if c.Items != nil {
			c.Items = outForm(c.Items)
		}
		if c.Properties != nil {
			props := make(map[string]*jsonschema.Schema, len(c.Properties))
			for k, p := range c.Properties {
				props[k] = outForm(p)
			}
			c.Properties = props
		}
		return &c
	}
	out := outForm(s)
	if len(defs) > 0 {
		out.Defs = defs
	}
	out.Schema = schema.Draft
	body, err := json.Marshal(out)
	if err != nil {
		panic(fmt.Sprintf("catalog: encoding %s: %v", name, err)) // a defect: the schema is the package's own
	}
	sum := sha256.Sum256(body)
	out.ID = schema.IDPrefix + name + ":" + hex.EncodeToString(sum[:8])
	return out
}
