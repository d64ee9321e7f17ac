// Drip schedules (issue 33): read and set by the course's editors (studio) and by staff (course editor); the flow
// checks the course role or the staff role.
import { dripScheduleRef, sectionDripInput } from '../../src-shared/schemas/drip.ts'
import { dripSchedule, setDripSchedule } from '../flows/drip-schedule.ts'
import { router, staffReachProcedure } from '../trpc/init.ts'

export const dripRouter = router({
  schedule: staffReachProcedure
    .input(dripScheduleRef)
    .query(({ ctx, input }) => dripSchedule(ctx.db, ctx.user, input.courseId)),
  setSection: staffReachProcedure
    .input(sectionDripInput)
    .mutation(({ ctx, input }) => setDripSchedule(ctx.db, ctx.user, input)),
})
