package sms

// escape is the GSM 03.38 septet that selects the extension table for the
// next septet.
const escape = 0x1B

// gsmDefault is the GSM 03.38 default alphabet, indexed by septet. Position
// 0x1B is the escape to the extension table and is not a character.
var gsmDefault = [128]rune{
	'@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å',
	'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', -1, 'Æ', 'æ', 'ß', 'É',
	' ', '!', '"', '#', '¤', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/',
	'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?',
	'¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O',
	'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§',
	'¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
	'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à',
}

// gsmExtension is the GSM 03.38 extension table: septet after the escape ->
// character.
var gsmExtension = map[byte]rune{
	0x0A: '\f',
	0x14: '^',
	0x28: '{',
	0x29: '}',
	0x2F: '\\',
	0x3C: '[',
	0x3D: '~',
	0x3E: ']',
	0x40: '|',
	0x65: '€',
}

// gsmLookupSize covers every code point of both tables except the euro sign,
// which is handled on its own (the highest is Ω, U+03A9).
const gsmLookupSize = 0x3AA

const (
	gsmPresent = 0x100 // the rune is in a table
	gsmExt     = 0x200 // the rune is in the extension table
)

// gsmLookup maps a rune below gsmLookupSize to its septet code, or'ed with
// gsmPresent, and gsmExt for the extension table; 0 means not encodable.
var gsmLookup [gsmLookupSize]uint16

func init() {
	for code, r := range gsmDefault {
		if r >= 0 {
			gsmLookup[r] = gsmPresent | uint16(code)
		}
	}
	for code, r := range gsmExtension {
		if r < gsmLookupSize {
			gsmLookup[r] = gsmPresent | gsmExt | uint16(code)
		}
	}
}

// gsmCode returns the septet code of r, whether it is an extension character
// (sent as escape + code, two septets) and whether r is encodable at all.
func gsmCode(r rune) (code byte, ext, ok bool) {
	if r >= 0 && r < gsmLookupSize {
		v := gsmLookup[r]
		return byte(v), v&gsmExt != 0, v&gsmPresent != 0
	}
	if r == '€' {
		return 0x65, true, true
	}
	return 0, false, false
}

// IsGSM7 reports whether r is in the GSM 03.38 default alphabet or its
// extension table.
func IsGSM7(r rune) bool {
	_, _, ok := gsmCode(r)
	return ok
}
