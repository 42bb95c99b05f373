package shortlink

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCodeRoundTrip(t *testing.T) {
	c := New("http://x/l/", "s")
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	month := int64((2026-2020)*12 + 10)
	ids := []int64{1, 61, 62, 987654321, maxID, // ids from before months were carried
		month<<monthShift | 5, (month-1)<<monthShift | 987654321, (month-11)<<monthShift | maxID}
	for _, id := range ids {
		for slot := 0; slot < MaxSlots; slot++ {
			code := c.Code(id, slot)
			if len(code) != CodeLen {
				t.Fatalf("code %q: length %d", code, len(code))
			}
			ref, ok := c.Decode(code)
			if !ok || ref.Slot != slot || !slices.Contains(ref.Candidates(now), id) {
				t.Fatalf("decode %q = %+v %v (candidates %v), want id %d slot %d", code, ref, ok, ref.Candidates(now), id, slot)
			}
		}
	}
	// Twelve months on, the month's remainder names the newer month: the old
	// link is no longer found (reports have archived it by then).
	old := c.Code(month<<monthShift|5, 0)
	if ref, _ := c.Decode(old); slices.Contains(ref.Candidates(now.AddDate(1, 0, 0)), month<<monthShift|5) {
		t.Fatal("a code resolved to a month twelve months back")
	}
	code := c.Code(42, 0)
	forged := code[:CodeLen-1] + string(alphabet[(strings.IndexByte(alphabet, code[CodeLen-1])+1)%62])
	if _, ok := c.Decode(forged); ok {
		t.Fatal("a code with a wrong HMAC was accepted")
	}
	if _, ok := New("http://x/l/", "other").Decode(code); ok {
		t.Fatal("a code of another key was accepted")
	}
}

func TestRenderAndSized(t *testing.T) {
	c := New("https://chpr.ir/l/", "s")
	text := "حراج {link:7} و {link:9} باز هم {link:7}"
	if got := LinkIDs(text); len(got) != 2 || got[0] != 7 || got[1] != 9 {
		t.Fatalf("LinkIDs = %v", got)
	}
	a, b := c.Render(text, 100), c.Render(text, 101)
	if a == b || len(a) != len(c.Sized(text)) || len(b) != len(a) {
		t.Fatalf("rendered texts must differ per recipient and have the sized length:\n%s\n%s\n%s", a, b, c.Sized(text))
	}
	if strings.Contains(a, Marker) || !strings.Contains(a, "https://chpr.ir/l/"+c.Code(100, 0)) ||
		!strings.Contains(a, "https://chpr.ir/l/"+c.Code(100, 1)) {
		t.Fatalf("rendered: %s", a)
	}
	if c.Render("no links", 1) != "no links" {
		t.Fatal("a text without placeholders changed")
	}
}

// TestCodesCarryALongCheck (issue 38 item 18): a code carries a six-character
// HMAC; changing any one of its check characters is refused. A first-generation
// code (two-character HMAC) still decodes, marked legacy, so links already sent
// keep working where the redirect allows them.
func TestCodesCarryALongCheck(t *testing.T) {
	c := New("http://x/l/", "s")
	code := c.Code(4242, 1)
	if len(code) != 14 || CodeLen != 14 {
		t.Fatalf("code %q: length %d, want 14", code, len(code))
	}
	for i := idLen + 1; i < CodeLen; i++ {
		b := []byte(code)
		b[i] = alphabet[(strings.IndexByte(alphabet, b[i])+1)%62]
		if _, ok := c.Decode(string(b)); ok {
			t.Fatalf("check character %d changed: %q accepted", i, b)
		}
	}
	if ref, ok := c.Decode(code); !ok || ref.Legacy || ref.Seq != 4242 || ref.Slot != 1 {
		t.Fatalf("decode %q = %+v %v", code, ref, ok)
	}
	head := code[:idLen+1]
	legacy := head + string(c.mac([]byte(head), legacyMacLen))
	if ref, ok := c.Decode(legacy); !ok || !ref.Legacy || ref.Seq != 4242 {
		t.Fatalf("legacy code %q = %+v %v", legacy, ref, ok)
	}
	if made := head + "00"; made != legacy {
		if _, ok := c.Decode(made); ok {
			t.Fatal("a made-up legacy check was accepted")
		}
	}
}

// TestRenderFromTemplateOnly (issue 38 item 8): a recipient's own text is rendered
// with its send's template links only, in the template's slots; a placeholder a
// value brought in is left as plain text.
func TestRenderFromTemplateOnly(t *testing.T) {
	c := New("https://chpr.ir/l/", "s")
	template := "سلام %name% {link:7}"
	own := "سلام {link:9} {link:7}"
	got := c.RenderFrom(template, own, 100)
	if want := "سلام {link:9} https://chpr.ir/l/" + c.Code(100, 0); got != want {
		t.Fatalf("rendered %q, want %q", got, want)
	}
	if got := c.RenderFrom("بدون لینک", "x {link:9}", 100); got != "x {link:9}" {
		t.Fatalf("a template without links rendered %q", got)
	}
}
