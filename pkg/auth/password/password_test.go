package password

import (
	"strings"
	"testing"
)

func TestHashVerify(t *testing.T) {
	h, err := Hash("Demo@12345")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("unexpected encoding %q", h)
	}
	if ok, err := Verify(h, "Demo@12345"); err != nil || !ok {
		t.Fatalf("right password rejected: %v %v", ok, err)
	}
	if ok, _ := Verify(h, "Demo@12346"); ok {
		t.Fatal("wrong password accepted")
	}
	h2, _ := Hash("Demo@12345")
	if h == h2 {
		t.Fatal("two hashes of one password share a salt")
	}
	for _, bad := range []string{"", "$bcrypt$x", "$argon2id$v=19$m=1$a$b", "$argon2id$v=19$m=19456,t=2,p=1$!!$x"} {
		if _, err := Verify(bad, "x"); err == nil {
			t.Errorf("malformed %q accepted", bad)
		}
	}
}
