// What domain code needs from a logger: Fastify's pino logger satisfies it, and so does a test's capturing one.
export interface Log {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}
