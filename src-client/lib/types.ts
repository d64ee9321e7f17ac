// Output types of the server's procedures, inferred from the AppRouter (no codegen).
import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '#server/routers/_app.ts'

export type RouterOutputs = inferRouterOutputs<AppRouter>
export type CourseCard = RouterOutputs['catalog']['featuredCourses'][number]
