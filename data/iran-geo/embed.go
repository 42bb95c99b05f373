// Package irangeo embeds Iran's provinces, counties and cities (README.md: sources
// and licences, © OpenStreetMap contributors, ODbL) for the number bank and the map.
package irangeo

import _ "embed"

// Provinces is provinces.geojson: 31 provinces with code, names, centre and outline.
//
//go:embed provinces.geojson
var Provinces []byte

// Counties is counties.geojson: 478 counties with code, province, names, centre and outline.
//
//go:embed counties.geojson
var Counties []byte

// Cities is cities.json: 1,253 cities by province (names only).
//
//go:embed cities.json
var Cities []byte
