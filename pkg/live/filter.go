package live

import (
	"encoding/json"

	"github.com/chapar/chapar/pkg/acl"
)

// Other events published to accounts, besides the names above.
const (
	EventImport         = "contacts.import"
	EventCampaignRun    = "campaign.run"
	EventCampaignFailed = "campaign.failed"
)

// EventPermissions maps every live event to the permission that reads what it
// carries (docs/security.md): a socket receives an event only when its identity holds
// that permission. An event missing here reaches owners only.
var EventPermissions = map[string]acl.Permission{
	EventSendProgress:   acl.ReportView,
	EventSendStatus:     acl.ReportView,
	EventCampaignRun:    acl.ReportView,
	EventCampaignFailed: acl.ReportView,
	EventInboxReceived:  acl.ReportView,
	EventCreditChanged:  acl.WalletView,
	EventTicketUpdated:  acl.SupportManage,
	EventFileProgress:   acl.FileManage,
	EventImport:         acl.PhonebookView,
}

// Allowed reports whether id may receive event.
func Allowed(id acl.Identity, event string) bool {
	if id.IsOwner {
		return true
	}
	p, ok := EventPermissions[event]
	return ok && id.Can(p)
}

// eventName reads the event name of a published message ("" when unreadable).
func eventName(payload []byte) string {
	var m struct {
		Event string `json:"event"`
	}
	if json.Unmarshal(payload, &m) != nil {
		return ""
	}
	return m.Event
}
