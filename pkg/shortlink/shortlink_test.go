package shortlink

import (
	"strings"
	"testing"
)

func TestCodeRoundTrip(t *testing.T) {
	c := New("http://x/l/", "s")
	for _, id := range []int64{1, 61, 62, 987654321, maxID} {
		for slot := 0; slot < MaxSlots; slot++ {
			code := c.Code(id, slot)
			if len(code) != CodeLen {
				t.Fatalf("code %q: length %d", code, len(code))
			}
			gotID, gotSlot, ok := c.Decode(code)
			if !ok || gotID != id || gotSlot != slot {
				t.Fatalf("decode %q = %d %d %v, want %d %d", code, gotID, gotSlot, ok, id, slot)
			}
		}
	}
	code := c.Code(42, 0)
	forged := code[:CodeLen-1] + string(alphabet[(strings.IndexByte(alphabet, code[CodeLen-1])+1)%62])
	if _, _, ok := c.Decode(forged); ok {
		t.Fatal("a code with a wrong HMAC was accepted")
	}
	if _, _, ok := New("http://x/l/", "other").Decode(code); ok {
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
