package restserver

import "net/http"

// roles answers GET /v1/{country}/company/{id}/roles: the RolesReport of
// one entity, with the errors of a lookup (the entity is looked up first)
// and not_implemented for a country whose module has no roles.
func (s *Server) roles(w http.ResponseWriter, r *http.Request) {
	b, err := s.ops.RolesJSON(r.Context(), r.PathValue("country"), r.PathValue("id"))
	s.respondJSON(w, r, b, err)
}
