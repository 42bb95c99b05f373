package httpapi

import "slices"

// routes is the route table, one part per domain (<domain>.go holds its table and
// its handlers): every route declares its permission.
func (s *Server) routes() []Route {
	return s.replayable(slices.Concat(s.authRoutes(), s.moneyRoutes(), s.sendRoutes(), s.reportRoutes(),
		s.contactRoutes(), s.fileRoutes(), s.colleagueRoutes(), s.auditRoutes(), s.walletRoutes(), s.paymentRoutes(),
		s.invoiceRoutes(), s.apiKeyRoutes(), s.predefinedRoutes(), s.adminRoutes(), s.patternRoutes(),
		s.webhookRoutes(), s.developerRoutes(), s.supportRoutes(), s.adminSupportRoutes(), s.linkRoutes(),
		s.inboxRoutes(), s.secretaryRoutes(), s.profileRoutes(), s.securityRoutes(), s.dashboardRoutes(),
		s.bankRoutes(), s.assistantRoutes(), s.sendHoursRoutes(), s.blocklistRoutes()))
}
