// Package validate holds the field validation rules of the Chapar panel
// (product spec §5), shared by the API and the worker.
//
// Every check is a plain function that returns nil or a *Error carrying the
// field name and the Persian message shown to the user. The field name is a
// sensible default (for example "mobile" or "national_code"); InField relabels
// an error for a form that names the field differently, and Collect gathers
// errors into the per-field lists of the API envelope's meta.errors.
//
// Input is normalised the way the panel normalises it: Persian (۰-۹) and
// Arabic-Indic (٠-٩) digits become Latin digits and surrounding whitespace is
// ignored. Format checks treat a blank value as malformed; wrap a check in
// Optional for a field that may be left empty, and use NotBlank for a field
// that is required.
package validate
