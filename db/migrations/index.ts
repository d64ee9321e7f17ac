// Every migration, by name. A unit test checks this list matches the folder, so none can be forgotten.
import type { Migration } from 'kysely/migration'
import * as m0900 from './2026_11_22_0900_catalog.ts'
import * as m1000 from './2026_11_22_1000_users_sessions_mail.ts'
import * as m1100 from './2026_11_22_1100_storefront.ts'
import * as m1200 from './2026_11_22_1200_accounts.ts'
import * as m1300 from './2026_11_22_1300_cart_orders.ts'
import * as m1400 from './2026_11_22_1400_admin.ts'
import * as m1700 from './2026_11_22_1700_catalog_version.ts'
import * as m1123_0900 from './2026_11_23_0900_stripe_event_outcome.ts'
import * as m231420 from './2026_11_23_1420_mail_reply_to.ts'
import * as m231500 from './2026_11_23_1500_mail_outbox_job.ts'
import * as m241000 from './2026_11_24_1000_access_ledger.ts'
import * as m241010 from './2026_11_24_1010_one_live_subscription.ts'
import * as m241100 from './2026_11_24_1100_after_purchase.ts'
import * as m241200 from './2026_11_24_1200_lessons.ts'
import * as m241300 from './2026_11_24_1300_service_order_workflow.ts'
import * as m241400 from './2026_11_24_1400_mail_outbox_listing.ts'
import * as m241500 from './2026_11_24_1500_catalog_at_scale.ts'
import * as m241510 from './2026_11_24_1510_catalog_sort_indexes.ts'
import * as m241700 from './2026_11_24_1700_course_reviews.ts'
import * as m250100 from './2026_11_25_0100_learning_gaps.ts'
import * as m250200 from './2026_11_25_0200_after_purchase_gaps.ts'
import * as m250300 from './2026_11_25_0300_service_order_periods_reads.ts'
import * as m250500 from './2026_11_25_0500_sitemap_course_index.ts'
import * as m270100 from './2026_11_27_0100_catalog_version_categories.ts'
import * as m280100 from './2026_11_28_0100_subscription_refund_end.ts'
import * as m282100 from './2026_11_28_2100_two_factor_sessions.ts'
import * as m290000 from './2026_11_29_0000_creators.ts'
import * as m290110 from './2026_11_29_0110_instructor_courses.ts'
import * as m290130 from './2026_11_29_0130_course_team_invites.ts'
import * as m290200 from './2026_11_29_0200_earnings.ts'
import * as m290210 from './2026_11_29_0210_payouts.ts'
import * as m290220 from './2026_11_29_0220_course_shares.ts'
import * as m290230 from './2026_11_29_0230_premium_pool.ts'
import * as m290250 from './2026_11_29_0250_processor_fees.ts'
import * as m290300 from './2026_11_29_0300_coupons.ts'
import * as m290320 from './2026_11_29_0320_bundles.ts'
import * as m290340 from './2026_11_29_0340_gifts.ts'
import * as m290350 from './2026_11_29_0350_cart_reminders.ts'
import * as m290400 from './2026_11_29_0400_quizzes.ts'
import * as m290420 from './2026_11_29_0420_section_drip.ts'
import * as m290430 from './2026_11_29_0430_lesson_questions.ts'
import * as m290500 from './2026_11_29_0500_data_exports.ts'
import * as m300100 from './2026_11_30_0100_plan_coupons_and_gifts.ts'
import * as m300300 from './2026_11_30_0300_post_reports_images.ts'
import * as m300400 from './2026_11_30_0400_account_deletion.ts'
import * as m300500 from './2026_11_30_0500_instructor_messages.ts'
import * as m300600 from './2026_11_30_0600_live_sessions.ts'
import * as m300700 from './2026_11_30_0700_analytics.ts'
import * as m300800 from './2026_11_30_0800_schools.ts'
import * as m300900 from './2026_11_30_0900_offline_lessons.ts'
import * as m010100 from './2026_12_01_0100_api_keys.ts'
import * as m010200 from './2026_12_01_0200_webhooks.ts'
import * as m010300 from './2026_12_01_0300_school_sso.ts'
import * as m010400 from './2026_12_01_0400_school_domains.ts'
import * as m010500 from './2026_12_01_0500_video_renditions.ts'
import * as m010700 from './2026_12_01_0700_erasure_stripe_customers.ts'
import * as m010710 from './2026_12_01_0710_passkeys.ts'
import * as m010800 from './2026_12_01_0800_post_image_posts.ts'
import * as m020100 from './2026_12_02_0100_mail_from_name.ts'
import * as m020200 from './2026_12_02_0200_analytics_feedback.ts'
import * as m020300 from './2026_12_02_0300_staff_lesson_uploads.ts'
import * as m020400 from './2026_12_02_0400_course_prices_by_currency.ts'
import * as m020500 from './2026_12_02_0500_sales_channels.ts'
import * as m020600 from './2026_12_02_0600_application_video_uploads.ts'
import * as m030200 from './2026_12_03_0200_course_view_channels.ts'
import * as m030300 from './2026_12_03_0300_analytics_shop_daily.ts'
import * as m030400 from './2026_12_03_0400_analytics_sales_top.ts'
import * as m041000 from './2026_12_04_1000_analytics_progress_indexes.ts'
import * as m050000 from './2026_12_05_0000_analytics_learner_state.ts'
import * as m050100 from './2026_12_05_0100_catalog_version_course_pages.ts'
import * as m060000 from './2026_12_06_0000_catalog_version_home_content.ts'
import * as m070000 from './2026_12_07_0000_school_domain_claims.ts'
import * as m080100 from './2026_12_08_0100_session_site.ts'
import * as m090000 from './2026_12_09_0000_school_sso_pending_links.ts'
import * as m100200 from './2026_12_10_0200_subscription_invoice_tax.ts'
import * as m110200 from './2026_12_11_0200_sign_in_handoffs.ts'
import * as m110300 from './2026_12_11_0300_school_sso_domain_proofs.ts'
import * as m110400 from './2026_12_11_0400_renewal_refunds_and_trial_lines.ts'
import * as m120100 from './2026_12_12_0100_free_trial_order_totals.ts'
import * as m120200 from './2026_12_12_0200_renewal_disputes.ts'
import * as m120300api from './2026_12_12_0300_api_sync_commit_horizon.ts'
import * as m120300 from './2026_12_12_0300_sso_domain_proof_rechecks.ts'
import * as m130100 from './2026_12_13_0100_custom_domain_rechecks.ts'
import * as m140000 from './2026_12_14_0000_subscription_staff_end_claim.ts'
import * as m150000 from './2026_12_15_0000_credit_note_tax.ts'
import * as m150100 from './2026_12_15_0100_team_members_wording.ts'
import * as m160000 from './2026_12_16_0000_support_tiers.ts'
import * as m170000 from './2026_12_17_0000_live_chat.ts'
import * as m170100 from './2026_12_17_0100_contact_replies.ts'
import * as m180000 from './2026_12_18_0000_chat_left_as_message.ts'
import * as m180100 from './2026_12_18_0100_chat_desk_presence.ts'
import * as m190000 from './2026_12_19_0000_visitor_chats.ts'
import * as m200000 from './2026_12_20_0000_service_renewal_payments.ts'
import * as m210000 from './2026_12_21_0000_premium_pool_share_parts.ts'
import * as m220000 from './2026_12_22_0000_payout_unconfirmed.ts'
import * as m220100 from './2026_12_22_0100_relay_retakes_gone_jobs.ts'
import * as m220200 from './2026_12_22_0200_learning_server_clock.ts'
import * as m230100 from './2026_12_23_0100_tus_upload_locks.ts'
import * as m230300 from './2026_12_23_0300_premium_watch_clock.ts'
import * as m240000 from './2026_12_24_0000_dispute_holds.ts'
import * as m250000 from './2026_12_25_0000_payout_fit_and_keys.ts'
import * as m260000 from './2026_12_26_0000_enrolment_invites.ts'
import * as m270000 from './2026_12_27_0000_signup_credentials.ts'
import * as m280000 from './2026_12_28_0000_plan_change_quotes.ts'
import * as m1229_0300 from './2026_12_29_0300_support_reply_mail_and_desk_choice.ts'
import * as m1229_0400 from './2026_12_29_0400_uploads_for_a_course.ts'
import * as m1230_0100 from './2026_12_30_0100_enterprise_webhooks_wording.ts'
import * as m1230_0200 from './2026_12_30_0200_live_session_announcements.ts'
import * as m1230_0600 from './2026_12_30_0600_gift_recipients.ts'
import * as m1231_0000 from './2026_12_31_0000_bundle_refund_requests.ts'
import * as m0101_0000 from './2027_01_01_0000_mail_outbox_by_recipient.ts'
import * as m0102_0000 from './2027_01_02_0000_contact_messages_by_sender.ts'
import * as m0103_0000 from './2027_01_03_0000_signup_browser.ts'
import * as m0104_0000 from './2027_01_04_0000_audit_log_by_actor.ts'
import * as m0105_0000 from './2027_01_05_0000_course_update_mails.ts'
import * as m0106_0000 from './2027_01_06_0000_email_change_links.ts'
import * as m0106_0100 from './2027_01_06_0100_mail_unsubscribe_links.ts'
import * as m0106_0200 from './2027_01_06_0200_stripe_email_due.ts'
import * as m0106_0300 from './2027_01_06_0300_course_news_mutes.ts'
import * as m0107_0000 from './2027_01_07_0000_account_suspensions.ts'
import * as m0107_0100 from './2027_01_07_0100_customer_notes.ts'
import * as m0108_0000 from './2027_01_08_0000_gifts_follow_a_moved_account.ts'
import * as m0108_0100 from './2027_01_08_0100_suspended_accounts_index.ts'

export const migrations: Record<string, Migration> = {
  '2026_11_22_0900_catalog': m0900,
  '2026_11_22_1000_users_sessions_mail': m1000,
  '2026_11_22_1100_storefront': m1100,
  '2026_11_22_1200_accounts': m1200,
  '2026_11_22_1300_cart_orders': m1300,
  '2026_11_22_1400_admin': m1400,
  '2026_11_22_1700_catalog_version': m1700,
  '2026_11_23_0900_stripe_event_outcome': m1123_0900,
  '2026_11_23_1420_mail_reply_to': m231420,
  '2026_11_23_1500_mail_outbox_job': m231500,
  '2026_11_24_1000_access_ledger': m241000,
  '2026_11_24_1010_one_live_subscription': m241010,
  '2026_11_24_1100_after_purchase': m241100,
  '2026_11_24_1200_lessons': m241200,
  '2026_11_24_1300_service_order_workflow': m241300,
  '2026_11_24_1400_mail_outbox_listing': m241400,
  '2026_11_24_1500_catalog_at_scale': m241500,
  '2026_11_24_1510_catalog_sort_indexes': m241510,
  '2026_11_24_1700_course_reviews': m241700,
  '2026_11_25_0100_learning_gaps': m250100,
  '2026_11_25_0200_after_purchase_gaps': m250200,
  '2026_11_25_0300_service_order_periods_reads': m250300,
  '2026_11_25_0500_sitemap_course_index': m250500,
  '2026_11_27_0100_catalog_version_categories': m270100,
  '2026_11_28_0100_subscription_refund_end': m280100,
  '2026_11_28_2100_two_factor_sessions': m282100,
  '2026_11_29_0000_creators': m290000,
  '2026_11_29_0110_instructor_courses': m290110,
  '2026_11_29_0130_course_team_invites': m290130,
  '2026_11_29_0200_earnings': m290200,
  '2026_11_29_0210_payouts': m290210,
  '2026_11_29_0220_course_shares': m290220,
  '2026_11_29_0230_premium_pool': m290230,
  '2026_11_29_0250_processor_fees': m290250,
  '2026_11_29_0300_coupons': m290300,
  '2026_11_29_0320_bundles': m290320,
  '2026_11_29_0340_gifts': m290340,
  '2026_11_29_0350_cart_reminders': m290350,
  '2026_11_29_0400_quizzes': m290400,
  '2026_11_29_0420_section_drip': m290420,
  '2026_11_29_0430_lesson_questions': m290430,
  '2026_11_29_0500_data_exports': m290500,
  '2026_11_30_0100_plan_coupons_and_gifts': m300100,
  '2026_11_30_0300_post_reports_images': m300300,
  '2026_11_30_0400_account_deletion': m300400,
  '2026_11_30_0500_instructor_messages': m300500,
  '2026_11_30_0600_live_sessions': m300600,
  '2026_11_30_0700_analytics': m300700,
  '2026_11_30_0800_schools': m300800,
  '2026_11_30_0900_offline_lessons': m300900,
  '2026_12_01_0100_api_keys': m010100,
  '2026_12_01_0200_webhooks': m010200,
  '2026_12_01_0300_school_sso': m010300,
  '2026_12_01_0400_school_domains': m010400,
  '2026_12_01_0500_video_renditions': m010500,
  '2026_12_01_0700_erasure_stripe_customers': m010700,
  '2026_12_01_0710_passkeys': m010710,
  '2026_12_01_0800_post_image_posts': m010800,
  '2026_12_02_0100_mail_from_name': m020100,
  '2026_12_02_0200_analytics_feedback': m020200,
  '2026_12_02_0300_staff_lesson_uploads': m020300,
  '2026_12_02_0400_course_prices_by_currency': m020400,
  '2026_12_02_0500_sales_channels': m020500,
  '2026_12_02_0600_application_video_uploads': m020600,
  '2026_12_03_0200_course_view_channels': m030200,
  '2026_12_03_0300_analytics_shop_daily': m030300,
  '2026_12_03_0400_analytics_sales_top': m030400,
  '2026_12_04_1000_analytics_progress_indexes': m041000,
  '2026_12_05_0000_analytics_learner_state': m050000,
  '2026_12_05_0100_catalog_version_course_pages': m050100,
  '2026_12_06_0000_catalog_version_home_content': m060000,
  '2026_12_07_0000_school_domain_claims': m070000,
  '2026_12_08_0100_session_site': m080100,
  '2026_12_09_0000_school_sso_pending_links': m090000,
  '2026_12_10_0200_subscription_invoice_tax': m100200,
  '2026_12_11_0200_sign_in_handoffs': m110200,
  '2026_12_11_0300_school_sso_domain_proofs': m110300,
  '2026_12_11_0400_renewal_refunds_and_trial_lines': m110400,
  '2026_12_12_0100_free_trial_order_totals': m120100,
  '2026_12_12_0200_renewal_disputes': m120200,
  '2026_12_12_0300_api_sync_commit_horizon': m120300api,
  '2026_12_12_0300_sso_domain_proof_rechecks': m120300,
  '2026_12_13_0100_custom_domain_rechecks': m130100,
  '2026_12_14_0000_subscription_staff_end_claim': m140000,
  '2026_12_15_0000_credit_note_tax': m150000,
  '2026_12_15_0100_team_members_wording': m150100,
  '2026_12_16_0000_support_tiers': m160000,
  '2026_12_17_0000_live_chat': m170000,
  '2026_12_17_0100_contact_replies': m170100,
  '2026_12_18_0000_chat_left_as_message': m180000,
  '2026_12_18_0100_chat_desk_presence': m180100,
  '2026_12_19_0000_visitor_chats': m190000,
  '2026_12_20_0000_service_renewal_payments': m200000,
  '2026_12_21_0000_premium_pool_share_parts': m210000,
  '2026_12_22_0000_payout_unconfirmed': m220000,
  '2026_12_22_0100_relay_retakes_gone_jobs': m220100,
  '2026_12_22_0200_learning_server_clock': m220200,
  '2026_12_23_0100_tus_upload_locks': m230100,
  '2026_12_23_0300_premium_watch_clock': m230300,
  '2026_12_24_0000_dispute_holds': m240000,
  '2026_12_25_0000_payout_fit_and_keys': m250000,
  '2026_12_26_0000_enrolment_invites': m260000,
  '2026_12_27_0000_signup_credentials': m270000,
  '2026_12_28_0000_plan_change_quotes': m280000,
  '2026_12_29_0300_support_reply_mail_and_desk_choice': m1229_0300,
  '2026_12_29_0400_uploads_for_a_course': m1229_0400,
  '2026_12_30_0100_enterprise_webhooks_wording': m1230_0100,
  '2026_12_30_0200_live_session_announcements': m1230_0200,
  '2026_12_30_0600_gift_recipients': m1230_0600,
  '2026_12_31_0000_bundle_refund_requests': m1231_0000,
  '2027_01_01_0000_mail_outbox_by_recipient': m0101_0000,
  '2027_01_02_0000_contact_messages_by_sender': m0102_0000,
  '2027_01_03_0000_signup_browser': m0103_0000,
  '2027_01_04_0000_audit_log_by_actor': m0104_0000,
  '2027_01_05_0000_course_update_mails': m0105_0000,
  '2027_01_06_0000_email_change_links': m0106_0000,
  '2027_01_06_0100_mail_unsubscribe_links': m0106_0100,
  '2027_01_06_0200_stripe_email_due': m0106_0200,
  '2027_01_06_0300_course_news_mutes': m0106_0300,
  '2027_01_07_0000_account_suspensions': m0107_0000,
  '2027_01_07_0100_customer_notes': m0107_0100,
  '2027_01_08_0000_gifts_follow_a_moved_account': m0108_0000,
  '2027_01_08_0100_suspended_accounts_index': m0108_0100,
}
