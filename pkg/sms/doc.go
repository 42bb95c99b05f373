// Package sms encodes message text for SMPP: it picks the alphabet, counts
// characters and parts the way the panel's counter shows them, splits long
// messages into concatenated parts and decodes received parts.
//
// A text is GSM 03.38 (GSM-7) when every character is in the default
// alphabet or its extension table, otherwise UCS-2 (UTF-16 big-endian). The
// extension characters ^ { } \ [ ~ ] | € and form feed cost two septets (an
// escape and a code); a character outside the Basic Multilingual Plane, such
// as an emoji, costs two UTF-16 units (a surrogate pair).
//
// A single part holds 160 septets or 70 UTF-16 units. Longer messages are
// sent as concatenated parts of at most 153 septets or 67 units, each with a
// six-byte user data header 05 00 03 <ref> <total> <seq> (8-bit reference).
// Parts are filled greedily and never split an escape pair or a surrogate
// pair, so a part next to such a pair may hold one unit less. Count and Split
// share that rule, so the part count shown to the user is exactly the number
// of parts submitted and billed.
//
// Advertising lines append the cancel-11 footer (Cancel11Footer); being
// Persian, it makes the whole message UCS-2.
package sms
