// The studio pages a course's team opens without being a creator themselves (issues 34 and 36): the messages inbox and
// its threads, and a course's editor (its details, curriculum and quizzes). The server decides which courses they see
// and whether their role edits them (creators/school-access.ts).
export function isTeamPath(pathname: string): boolean {
  if (pathname === '/studio/messages' || pathname.startsWith('/studio/messages/')) return true
  return pathname.startsWith('/studio/courses/') && !pathname.startsWith('/studio/courses/new')
}
