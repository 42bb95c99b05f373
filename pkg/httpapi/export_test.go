package httpapi

// RoutesOf is the route table of a server on d, for the permission walk of the
// external tests.
func RoutesOf(d Deps) []Route { return (&Server{Deps: d}).routes() }
