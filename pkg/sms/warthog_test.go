package sms

// Cross-checks against an independent implementation, github.com/warthog618/sms
// (3GPP TS 23.038/23.040 TPDU encoder and decoder), used by tests only.

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	wsms "github.com/warthog618/sms"
	"github.com/warthog618/sms/encoding/gsm7"
	"github.com/warthog618/sms/encoding/tpdu"
	"github.com/warthog618/sms/encoding/ucs2"
)

// comparable reports whether warthog can judge text. It maps the rune U+001B
// to the escape septet itself, which we treat as not GSM-7 (it would be read
// as an escape), so texts holding it are left out.
func comparable(text string) bool { return !strings.ContainsRune(text, 0x1B) }

// crossCheck compares our alphabet choice, length, part count and part
// contents with warthog's encoder, and has warthog's decoder reassemble our
// parts after packing them into SMS-SUBMIT TPDUs.
func crossCheck(t testing.TB, text string) {
	t.Helper()
	if !comparable(text) {
		return
	}
	st := Count(text, false)

	// Alphabet and length.
	ud, _, alpha := tpdu.EncodeUserData([]byte(text))
	switch alpha {
	case tpdu.Alpha7Bit:
		if st.Encoding != GSM7 {
			t.Fatalf("%q: warthog encodes GSM-7, we say %v", text, st.Encoding)
		}
		septets, err := gsm7.Encode([]byte(text))
		if err != nil || len(septets) != st.Characters || !bytes.Equal(septets, ud) {
			t.Fatalf("%q: warthog counts %d septets, we %d (%v)", text, len(septets), st.Characters, err)
		}
	case tpdu.AlphaUCS2:
		if st.Encoding != UCS2 {
			t.Fatalf("%q: warthog encodes UCS-2, we say %v", text, st.Encoding)
		}
		if u := ucs2.Encode([]rune(text)); len(u)/2 != st.Characters {
			t.Fatalf("%q: warthog counts %d UTF-16 units, we %d", text, len(u)/2, st.Characters)
		}
	default:
		t.Fatalf("%q: warthog chose alphabet %v", text, alpha)
	}

	// Segmentation: warthog also fills 153/67 greedily without splitting
	// pairs, with an 8-bit reference by default, so the parts must agree.
	theirs, err := wsms.Encode([]byte(text))
	if err != nil {
		t.Fatalf("%q: warthog Encode: %v", text, err)
	}
	ours, err := Split(text, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(theirs) != len(ours) || len(ours) != st.Parts {
		t.Fatalf("%q: warthog makes %d parts, Split %d, Count %d", text, len(theirs), len(ours), st.Parts)
	}
	for i := range ours {
		if !bytes.Equal(theirs[i].UD, ours[i].Body()) {
			t.Fatalf("%q part %d differs:\nwarthog % X\nours    % X", text, i+1, theirs[i].UD, ours[i].Body())
		}
		if segs, seq, ref, ok := theirs[i].ConcatInfo(); ok != (len(ours) > 1) ||
			ok && (segs != ours[i].Total || seq != ours[i].Seq || ref != int(ours[i].Ref)) {
			t.Fatalf("%q part %d: warthog concat %d/%d ref %d", text, i+1, seq, segs, ref)
		}
	}
	if len(ours) == 0 {
		return
	}

	// Our parts as SMS-SUBMIT TPDUs: packed, unmarshalled and decoded by
	// warthog into the original text.
	segments := make([]*tpdu.TPDU, len(ours))
	for i, p := range ours {
		pdu, err := tpdu.NewSubmit()
		if err != nil {
			t.Fatal(err)
		}
		pdu.SetDCS(p.DataCoding())
		if p.UDHI() {
			var udh tpdu.UserDataHeader
			if _, err := udh.UnmarshalBinary(p.Payload[:udhLen]); err != nil {
				t.Fatalf("%q part %d: warthog rejects our header: %v", text, i+1, err)
			}
			pdu.SetUDH(udh)
		}
		pdu.SetUD(p.Body())
		bin, err := pdu.MarshalBinary()
		if err != nil {
			t.Fatalf("%q part %d: marshal: %v", text, i+1, err)
		}
		// The user data (UDL byte excluded) is what must fit in 140 octets.
		udhBin, _ := pdu.UDH.MarshalBinary()
		fill := 0
		if len(udhBin)%7 != 0 {
			fill = 7 - len(udhBin)%7
		}
		air := len(udhBin) + len(p.Body())
		if p.Encoding == GSM7 {
			air = len(udhBin) + len(gsm7.Pack7Bit(p.Body(), fill))
		}
		if air != p.AirOctets() || air > 140 {
			t.Fatalf("%q part %d: %d octets over the air, AirOctets says %d", text, i+1, air, p.AirOctets())
		}
		back, err := wsms.Unmarshal(bin, wsms.AsMO)
		if err != nil {
			t.Fatalf("%q part %d: unmarshal: %v", text, i+1, err)
		}
		segments[i] = back
	}
	if !wsms.IsCompleteMessage(segments) {
		t.Fatalf("%q: warthog finds the parts incomplete", text)
	}
	msg, err := wsms.Decode(segments)
	if err != nil || string(msg) != text {
		t.Fatalf("%q: warthog reassembles %q, %v", text, msg, err)
	}
}

func TestWarthogCrossCheck(t *testing.T) {
	for _, tt := range boundaryCases {
		crossCheck(t, Compose(tt.text, tt.cancel11))
	}
	// Every single GSM character, and each extension character at every
	// position around the 153-septet boundary.
	for _, r := range gsmAlphabet {
		crossCheck(t, string(r))
		crossCheck(t, rep(string(r), 200))
	}
	for _, ext := range "^{}\\[~]|€\f" {
		for pre := 148; pre <= 162; pre++ {
			crossCheck(t, rep("x", pre)+string(ext)+rep("y", 160))
		}
	}
	for pre := 60; pre <= 72; pre++ {
		crossCheck(t, rep(fa, pre)+emoji+rep(fa, 70))
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 1500; i++ {
		crossCheck(t, randomText(r, r.IntN(800), i%2 == 0))
	}
}
