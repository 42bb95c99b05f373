package upload

import (
	"bytes"
	"context"
	"errors"
	"mime/multipart"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chapar/chapar/internal/testing/testenv"
	"github.com/chapar/chapar/pkg/acl"
	"github.com/chapar/chapar/pkg/apperr"
)

// newReceiveEnv is a parse environment that also receives uploads (an asynq client
// on a private Redis database).
func newReceiveEnv(t *testing.T) *parseEnv {
	e := newParseEnv(t)
	r := testenv.RedisDB(t)
	q := asynq.NewClient(asynq.RedisClientOpt{Addr: r.Addr, DB: r.DB})
	t.Cleanup(func() { _ = q.Close() })
	e.svc.queue = q
	return e
}

// receive uploads one file through Receive.
func (e *parseEnv) receive(name string, data []byte) (Uploaded, error) {
	e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("file", name)
	if err != nil {
		e.t.Fatal(err)
	}
	_, _ = w.Write(data)
	_ = mw.Close()
	return e.svc.Receive(context.Background(), acl.Identity{AccountID: e.account},
		Upload{Body: &body, ContentType: mw.FormDataContentType()})
}

// stored lists the objects on disk.
func (e *parseEnv) stored() []string {
	left, _ := filepath.Glob(filepath.Join(e.svc.store.(*Disk).Dir, "*", "*"))
	return left
}

// refusedWith checks an upload error's kind and Persian message.
func refusedWith(t *testing.T, err error, kind apperr.Kind, msg string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != kind || ae.Message != msg {
		t.Fatalf("refusal: %v, want %q", err, msg)
	}
}

// TestUploadQuota: an account's stored files may not pass its quota (413 with a
// Persian message, nothing stored); a rejected file's bytes no longer count.
func TestUploadQuota(t *testing.T) {
	e := newReceiveEnv(t)
	e.svc.Quota = 1000
	data := []byte(strings.Repeat("09121234567\n", 50)) // 600 bytes
	first, err := e.receive("a.txt", bytes.Repeat([]byte("no number\n"), 60))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.receive("b.txt", data)
	refusedWith(t, err, apperr.TooLarge, MsgQuota)
	if n := len(e.stored()); n != 1 {
		t.Fatalf("%d objects stored after a refusal", n)
	}
	// A full quota refuses before reading the file.
	e.svc.Quota = 600
	_, err = e.receive("c.txt", []byte("09121234567\n"))
	refusedWith(t, err, apperr.TooLarge, MsgQuota)
	// The first file is rejected: its bytes are deleted and the room is back.
	e.svc.Quota = 1000
	if d := e.parse(first.ID); d.Error != MsgNoValid {
		t.Fatalf("first file: %+v", d)
	}
	if _, err := e.receive("d.txt", data); err != nil {
		t.Fatalf("after the rejected file: %v", err)
	}
	var files int
	_ = e.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM files`).Scan(&files)
	if files != 2 {
		t.Fatalf("%d file rows, want 2", files)
	}
}

// TestUploadContent: the extension must match the content (magic bytes), and a
// refusal stores nothing.
func TestUploadContent(t *testing.T) {
	e := newReceiveEnv(t)
	xlsx := readFile(t, writeXLSX(t, [][]any{{"09121234567"}}))
	ole := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 100)...)
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"text.xlsx", []byte("09121234567\n"), MsgFormat},
		{"book.csv", xlsx, MsgFormat},
		{"old.xlsx", ole, MsgXLS},
		{"binary.txt", []byte("0912\x00\x01\x02"), MsgFormat},
	}
	for _, c := range cases {
		_, err := e.receive(c.name, c.data)
		refusedWith(t, err, apperr.Invalid, c.msg)
	}
	if left := e.stored(); len(left) != 0 {
		t.Fatalf("refused uploads stored %v", left)
	}
	utf16 := []byte{0xFF, 0xFE, '0', 0, '9', 0, '1', 0, '2', 0}
	for name, data := range map[string][]byte{"book.xlsx": xlsx, "utf16.txt": utf16} {
		if _, err := e.receive(name, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRejectedFileBytesDeleted: a file that fails (no valid number, not a
// spreadsheet) keeps its row and error but loses its stored bytes.
func TestRejectedFileBytesDeleted(t *testing.T) {
	e := newParseEnv(t)
	ids := map[int64]string{
		e.add("bad.txt", PurposeSend, []byte("abc\n123\n")):            MsgNoValid,
		e.add("bad.xlsx", PurposeSend, []byte("PK\x03\x04 not a zip")): MsgFormat,
	}
	good := e.add("good.txt", PurposeSend, []byte("09121234567\n"))
	for id, msg := range ids {
		if d := e.parse(id); d.Status != StatusFailed || d.Error != msg {
			t.Fatalf("file %d: %s %q", id, d.Status, d.Error)
		}
		var key *string
		_ = e.db.Pool.QueryRow(context.Background(), `SELECT storage_key FROM files WHERE id = $1`, id).Scan(&key)
		if key != nil {
			t.Fatalf("file %d keeps its key %q", id, *key)
		}
		if _, _, err := e.svc.Original(context.Background(), e.account, id); !errors.Is(err, errNotFound) {
			t.Fatalf("file %d download: %v", id, err)
		}
	}
	if d := e.parse(good); d.Status != StatusReady {
		t.Fatalf("good file: %+v", d)
	}
	if left := e.stored(); len(left) != 1 {
		t.Fatalf("stored %v, want the good file only", left)
	}
}

// TestExpireOld: files older than the retention are deleted with their rows and
// bytes, except one a scheduled send or an enabled campaign still reads, or one
// still parsing.
func TestExpireOld(t *testing.T) {
	e := newParseEnv(t)
	ctx := context.Background()
	e.svc.Retention = 90 * 24 * time.Hour
	data := []byte("09121234567\n09351234567\n")
	ids := map[string]int64{}
	for _, n := range []string{"old", "scheduled", "campaign", "disabled", "recent", "parsing"} {
		ids[n] = e.add(n+".txt", PurposeSend, data)
		if n != "parsing" {
			e.parse(ids[n])
		}
		if n != "recent" {
			_, _ = e.db.Pool.Exec(ctx, `UPDATE files SET created_at = now() - interval '91 days' WHERE id = $1`, ids[n])
		}
	}
	exec := func(q string, args ...any) {
		if _, err := e.db.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO sends (account_id, type, sender, text, status, source) VALUES ($1, 'file', '3000', 'x', 'scheduled',
		jsonb_build_object('file_id', $2::bigint))`, e.account, ids["scheduled"])
	exec(`INSERT INTO sends (account_id, type, sender, text, status, source, expanded_at) VALUES ($1, 'file', '3000', 'x', 'done',
		jsonb_build_object('file_id', $2::bigint), now())`, e.account, ids["old"])
	for n, enabled := range map[string]bool{"campaign": true, "disabled": false} {
		exec(`INSERT INTO campaigns (account_id, title, request, schedule, enabled) VALUES ($1, 'c',
			jsonb_build_object('type', 'file', 'file_id', $2::bigint), '{}', $3)`, e.account, ids[n], enabled)
	}
	n, err := e.svc.ExpireOld(ctx)
	if err != nil || n != 2 {
		t.Fatalf("expired %d: %v", n, err)
	}
	for name, id := range ids {
		var exists bool
		_ = e.db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM files WHERE id = $1)`, id).Scan(&exists)
		gone := name == "old" || name == "disabled"
		if exists == gone || gone && e.count("file_rows", id) != 0 {
			t.Errorf("%s: exists %v, %d rows", name, exists, e.count("file_rows", id))
		}
	}
	if left := e.stored(); len(left) != 4 {
		t.Errorf("stored %d objects, want 4", len(left))
	}
	e.svc.Retention = 0
	if n, _ := e.svc.ExpireOld(ctx); n != 0 {
		t.Errorf("retention 0 expired %d", n)
	}
}
