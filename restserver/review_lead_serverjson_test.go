package restserver_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReview_ServerJSONAdvertisesChangeAlertsWithoutThem (internal/catalog
// changes.go: change monitoring is served "only when they are given a
// changes.Service (restserver.WithChanges, mcpserver.WithChanges); the
// texts describe them only then ([TextInputs.Changes])"): since 7bb955f
// /server.json's description says "change alerts" whatever the
// deployment serves, so a server without restserver.WithChanges (no
// /v1/watches route) publishes to the MCP registry an alert feature it
// does not have; and the MCP remote server.json describes has no watch
// tool even with it (catalog: createWatch … MCP "-").
func TestReview_ServerJSONAdvertisesChangeAlertsWithoutThem(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if res := h.get(t, "/v1/watches"); res.status == 200 || res.status == 201 {
		t.Fatalf("the harness serves /v1/watches (%d): it has change monitoring", res.status)
	}
	var sj struct{ Description string }
	if err := json.Unmarshal(h.get(t, "/server.json").body, &sj); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sj.Description, "change alerts") {
		t.Errorf("server.json of a deployment without change monitoring: description %q advertises change alerts", sj.Description)
	}
}
