// The line under a mail of a person's courses' news (a drip section opening, a live session scheduled): why it came
// and where to stop it. Those mails go only to people who take that news by e-mail (users.course_update_mails).

/** The footer, with the account page on the site the mail links to (a school's own domain when it has one). */
export function courseNewsFooter(siteUrl: string): string {
  const account = `${siteUrl.replace(/\/$/, '')}/account`
  return `\n--\nYou get this because you take this course. To stop e-mails about your courses' news, turn off "Course news by e-mail" under E-mail preferences: ${account}\n`
}
