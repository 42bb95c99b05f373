package profile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // decoders of the accepted logo formats
	_ "image/jpeg"
	"image/png"
	"io"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5"
	"golang.org/x/image/draw"

	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
	"github.com/chapar/chapar/pkg/audit"
	"github.com/chapar/chapar/pkg/upload"
)

// Limits of a logo (spec §5 Files, §9 Image).
const (
	// MaxImage is the largest profile image, in bytes.
	MaxImage = 2 << 20
	// LogoSide is the longest side of the stored logo, in pixels.
	LogoSide = 256
	// maxPixels refuses a decompression bomb before decoding it.
	maxPixels = 40_000_000
)

// Persian messages of the logo.
const (
	MsgImageMissing = "تصویری انتخاب نشده است"
	MsgImageBig     = "حجم تصویر باید حداکثر ۲ مگابایت باشد"
	MsgImageType    = "تصویر باید از نوع JPG، PNG یا GIF باشد"
)

// imageTypes are the contents accepted, as http.DetectContentType names them.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true}

// SetLogo checks an uploaded image by its content (JPG, PNG or GIF, at most 2 MB),
// scales it to fit LogoSide pixels and stores it as the account's PNG logo, audited.
func (s *Service) SetLogo(ctx context.Context, id acl.Identity, r io.Reader, ip string) error {
	data, err := readLimited(r, MaxImage, "logo", MsgImageMissing, MsgImageBig)
	if err != nil {
		return err
	}
	out, err := resize(data)
	if err != nil {
		return err
	}
	key := fmt.Sprintf("logos/%d/%s.png", id.AccountID, upload.NewKey())
	if _, err := s.store.Put(ctx, key, bytes.NewReader(out)); err != nil {
		return fmt.Errorf("store logo: %w", err)
	}
	var old string
	err = pgx.BeginFunc(ctx, s.pool, func(q pgx.Tx) error {
		if err := q.QueryRow(ctx, `INSERT INTO profiles (account_id, logo_key, logo_type) VALUES ($1, $2, 'image/png')
			ON CONFLICT (account_id) DO UPDATE SET logo_key = excluded.logo_key, logo_type = excluded.logo_type, updated_at = now()
			RETURNING coalesce((SELECT logo_key FROM profiles WHERE account_id = $1), '')`, id.AccountID, key).Scan(&old); err != nil {
			return fmt.Errorf("save logo: %w", err)
		}
		return audit.Record(ctx, q, audit.Entry{AccountID: id.AccountID, UserID: id.UserID, Action: "profile.logo",
			TargetType: "profile", Target: strconv.FormatInt(id.AccountID, 10), IP: ip, Details: map[string]any{"bytes": len(out)}})
	})
	if err != nil {
		_ = s.store.Delete(context.WithoutCancel(ctx), key)
		return err
	}
	if old != "" && old != key {
		_ = s.store.Delete(context.WithoutCancel(ctx), old)
	}
	return nil
}

// Logo opens the account's stored logo (apperr.ErrNotFound: none).
func (s *Service) Logo(ctx context.Context, accountID int64) (io.ReadCloser, error) {
	var key string
	err := s.pool.QueryRow(ctx, `SELECT logo_key FROM profiles WHERE account_id = $1`, accountID).Scan(&key)
	if err != nil || key == "" {
		return nil, apperr.ErrNotFound
	}
	rc, err := s.store.Open(ctx, key)
	if errors.Is(err, upload.ErrNoObject) {
		return nil, apperr.ErrNotFound
	}
	return rc, err
}

// readLimited reads an upload of at most limit bytes.
func readLimited(r io.Reader, limit int64, field, msgMissing, msgBig string) ([]byte, error) {
	if r == nil {
		return nil, apperr.Field(field, msgMissing)
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read upload: %w", err)
	case len(data) == 0:
		return nil, apperr.Field(field, msgMissing)
	case int64(len(data)) > limit:
		return nil, apperr.Field(field, msgBig)
	}
	return data, nil
}

// resize decodes a JPG, PNG or GIF (named by its bytes, never by its name) and
// returns it as a PNG whose longest side is at most LogoSide pixels.
func resize(data []byte) ([]byte, error) {
	if !imageTypes[http.DetectContentType(data)] {
		return nil, apperr.Field("logo", MsgImageType)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxPixels {
		return nil, apperr.Field("logo", MsgImageType)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, apperr.Field("logo", MsgImageType)
	}
	w, h := fit(cfg.Width, cfg.Height, LogoSide)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	var b bytes.Buffer
	if err := png.Encode(&b, dst); err != nil {
		return nil, fmt.Errorf("encode logo: %w", err)
	}
	return b.Bytes(), nil
}

// fit scales w×h down (never up) so the longest side is at most side.
func fit(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}
