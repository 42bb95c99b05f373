package shortlink

// LegacyCode is the first-generation code (two-character HMAC) of a recipient's
// link in slot, as texts sent before codes were lengthened carry it: for tests of
// the redirect's handling of such codes.
func LegacyCode(c *Codec, recipientID int64, slot int) string {
	code := c.Code(recipientID, slot)
	head := code[:idLen+1]
	return head + string(c.mac([]byte(head), legacyMacLen))
}
