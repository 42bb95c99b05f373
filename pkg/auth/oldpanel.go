package auth

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
)

// MsgOldPanelURL is the field error of an old panel address that is not an https URL.
const MsgOldPanelURL = "نشانی پنل قدیم باید با https:// شروع شود (حداکثر ۳۰۰ کاراکتر)؛ برای پنهان کردن نوار آن را خالی بگذارید"

// OldPanel is the «old panel» strip's setting: the address it links to, empty
// when the strip is off (the default).
type OldPanel struct {
	URL string `json:"url"`
}

// SaveOldPanel sets (or, empty, turns off) the address of the «old panel» strip
// shown on the login page and every panel page, audited as the staff member's.
func (s *Service) SaveOldPanel(ctx context.Context, by acl.Identity, in OldPanel, ip string) (OldPanel, error) {
	in.URL = strings.TrimSpace(in.URL)
	if in.URL != "" {
		u, err := url.Parse(in.URL)
		if err != nil || u.Scheme != "https" || u.Host == "" || len(in.URL) > 300 {
			return OldPanel{}, apperr.Field("url", MsgOldPanelURL)
		}
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO settings (key, value, updated_at) VALUES ('old_panel', jsonb_build_object('url', $1::text), now())
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`, in.URL); err != nil {
			return fmt.Errorf("save old panel: %w", err)
		}
		return audit.Record(ctx, tx, audit.Entry{UserID: by.UserID, Action: "staff.old_panel_saved", IP: ip,
			Details: map[string]any{"staff": by.Username, "url": in.URL}})
	})
	if err != nil {
		return OldPanel{}, err
	}
	return in, nil
}
