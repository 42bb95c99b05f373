package httpapi_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/chapar/chapar/pkg/upload"
)

// TestFileUploadQuota: an upload over the account's storage quota answers 413 with
// the Persian message; another account is not affected; an xlsx that is not a zip
// archive is refused at upload (422).
func TestFileUploadQuota(t *testing.T) {
	f := newFilesFixture(t)
	f.e.Deps.Files.Quota = 1000
	data := bytes.Repeat([]byte("09121234567\n"), 50) // 600 bytes
	f.uploaded("a.txt", data, "")
	r := f.upload(f.tokA, "b.txt", bytes.NewReader(data), "", false)
	if r.Status != http.StatusRequestEntityTooLarge || r.Meta.Message != upload.MsgQuota {
		t.Fatalf("over the quota: %d %s", r.Status, r.Raw)
	}
	if r := f.upload(f.tokB, "b.txt", bytes.NewReader(data), "", false); r.Status != http.StatusCreated {
		t.Fatalf("another account: %d %s", r.Status, r.Raw)
	}
	r = f.upload(f.tokA, "fake.xlsx", bytes.NewReader([]byte("09121234567\n")), "", false)
	if r.Status != http.StatusUnprocessableEntity || r.Meta.Message != upload.MsgFormat {
		t.Fatalf("text named xlsx: %d %s", r.Status, r.Raw)
	}
}
