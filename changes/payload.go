package changes

import (
	"encoding/json"
	"time"
)

// EventTypePrefix starts the type of every webhook of a change:
// "company." and the change's kind.
const EventTypePrefix = "company."

// WebhookBody returns the body of the webhooks of c, in the Standard
// Webhooks payload shape: the type "company.<kind>", the time the change
// was detected (RFC 3339, UTC) and the change itself, the same document as
// the feed item:
//
//	{"type":"company.name_changed","timestamp":"2026-01-15T09:00:00Z","data":{"id":"chg_…",…}}
func WebhookBody(c Change) ([]byte, error) {
	c.DetectedAt = c.DetectedAt.UTC()
	return json.Marshal(struct {
		Type      string    `json:"type"`
		Timestamp time.Time `json:"timestamp"`
		Data      Change    `json:"data"`
	}{EventTypePrefix + string(c.Kind), c.DetectedAt, c})
}
