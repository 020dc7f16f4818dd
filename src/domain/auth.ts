import { planIdSchema } from './billing';
import { z } from 'zod';
import { ETHNICITIES, GENDERS, RACES } from './options';
import { ownPasswordRefinement, passwordSchema, PASSWORD_MESSAGES } from './password';
import { ROLES } from './roles';
import { safeText } from './text';
import { isIsoDate } from './clock';
import { US_ZIP_PATTERN } from './zip';

// Kept with the other upload rules (uploads.ts), which the service worker imports without the sign-up
// rules (and their lazily loaded password checker, a dynamic import no service worker may run).
export { PROFILE_PHOTO_MAX_BYTES, PROFILE_PHOTO_TYPES } from './uploads';

// The /auth contract: request bodies, queries and responses, shared by the server's
// route schemas and the client's forms so both say the same thing in the same words.

export const AUTH_MESSAGES = {
  nameRequired: 'Name is required.',
  nameTooLong: 'Name must be at most 100 characters.',
  emailRequired: 'Email is required.',
  emailInvalid: 'Enter a valid email address.',
  zipInvalid: 'Enter a 5-digit US zip code or a 6-digit PIN code.',
  usZipInvalid: 'Enter a 5-digit US zip code.',
  roleInvalid: 'Choose an account type: Patient or Family and Caregiver.',
  otpInvalid: 'Enter the 6-digit code from the e-mail.',
  birthDateInvalid: 'Enter the birth date as YYYY-MM-DD.',
  birthDateFuture: 'Birth date cannot be in the future.',
  phoneInvalid: 'Enter a valid phone number (10 to 15 digits).',
  genderInvalid: `Gender must be one of: ${GENDERS.join(', ')}.`,
  raceInvalid: `Race must be one of: ${RACES.join('; ')}.`,
  ethnicityInvalid: `Ethnicity must be one of: ${ETHNICITIES.join('; ')}.`,
  invalidCredentials: 'Invalid email or password.',
  emailNotVerified: 'Please verify your e-mail address before signing in. We sent you a link.',
  emailTaken: 'An account with this email already exists.',
  otpSent: 'If an account exists for this email, we sent a 6-digit code. It is valid for 10 minutes.',
  otpWrong: 'The code is wrong or has expired. Request a new code.',
  otpTooManyTries: 'Too many wrong codes. Request a new code.',
  otpNotVerified: 'Verify the code from the e-mail before setting a new password.',
  resetTokenInvalid: 'This password reset has expired or was already used. Request a new code and try again.',
  verifyLinkInvalid: 'This verification link is invalid or has expired.',
  emailAlreadyVerified: 'Your e-mail address is already verified. You can sign in.',
  verificationResent:
    'If an account with this e-mail is waiting for verification, a new link is on its way (at most one every 5 minutes). It is valid for 24 hours.',
  oldPasswordWrong: 'The old password is wrong.',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  addressRequired: 'Address is required.',
  cityRequired: 'City is required.',
  stateRequired: 'State is required.',
  addressFieldTooLong: 'Address fields must be at most 200 characters.',
  zipUnknown: 'We could not find this zip code.',
} as const;

const email = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.emailInvalid)
  .pipe(z.email({ error: AUTH_MESSAGES.emailInvalid }))
  .transform((value) => value.toLowerCase());

const name = safeText(
  z
    .string({ error: AUTH_MESSAGES.nameRequired })
    .trim()
    .min(1, AUTH_MESSAGES.nameRequired)
    .max(100, AUTH_MESSAGES.nameTooLong),
);

const zipCode = z
  .string({ error: AUTH_MESSAGES.zipInvalid })
  .trim()
  .regex(/^(\d{5}|\d{6})$/, AUTH_MESSAGES.zipInvalid);

export const registerBodySchema = z
  .object({
    name,
    email,
    password: passwordSchema,
    role: z.enum(['Patient', 'Caregiver'], { error: AUTH_MESSAGES.roleInvalid }),
    zip_code: zipCode,
    /** A corporate sign-up's plan (/signup/:plan): a patient is offered it first when choosing a plan. */
    plan: planIdSchema.optional(),
  })
  .superRefine(
    ...ownPasswordRefinement('password', (body: { password: string; name: string; email: string }) => body),
  );
export type RegisterBody = z.input<typeof registerBodySchema>;

/**
 * POST /auth/invite-register: a person invited by a patient signs up as a caregiver. The e-mail is the
 * invitation's (the link proves the person reads that mailbox, so the account starts verified); the
 * server judges the password against it too.
 */
export const inviteRegisterBodySchema = z
  .object({
    token: z
      .string({ error: 'The invitation link is not valid.' })
      .regex(/^[A-Za-z0-9_-]{43}$/, 'The invitation link is not valid.'),
    name,
    password: passwordSchema,
    zip_code: zipCode,
  })
  .superRefine(...ownPasswordRefinement('password', (body: { password: string; name: string }) => body));
export type InviteRegisterBody = z.input<typeof inviteRegisterBodySchema>;
/** The answer to invite registration: the token for /onboarding/:token, the first sign-in. */
export const inviteRegisterResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  onboardingToken: z.string(),
});

export const loginBodySchema = z.object({
  email,
  password: z.string({ error: PASSWORD_MESSAGES.required }).min(1, PASSWORD_MESSAGES.required).max(1024),
});
export type LoginBody = z.input<typeof loginBodySchema>;

export const loginResponseSchema = z.object({
  success: z.literal(true),
  accessToken: z.string(),
  role: z.enum(ROLES),
  userId: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const messageResponseSchema = z.object({ success: z.boolean(), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const verifyEmailBodySchema = z.object({
  token: z
    .string({ error: AUTH_MESSAGES.verifyLinkInvalid })
    .regex(/^[A-Za-z0-9_-]{20,128}$/, AUTH_MESSAGES.verifyLinkInvalid),
});

/** POST /auth/verify-email's answer: `already_verified` when the link's account was verified before. */
export const verifyEmailResponseSchema = messageResponseSchema.extend({ already_verified: z.boolean() });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

/** POST /auth/resend-verification: a fresh link for an account that is not verified yet. */
export const resendVerificationBodySchema = z.object({ email });
export type ResendVerificationBody = z.input<typeof resendVerificationBodySchema>;

export const forgotPasswordBodySchema = z.object({ email });
export const otpSchema = z
  .string({ error: AUTH_MESSAGES.otpInvalid })
  .trim()
  .regex(/^\d{6}$/, AUTH_MESSAGES.otpInvalid);
export const verifyOtpBodySchema = z.object({ email, otp: otpSchema });

/**
 * The single-use token verify-otp answers: reset-password needs it, so knowing the e-mail alone (or having
 * seen that someone verified a code) is useless. Random, URL-safe, valid 10 minutes after the code was verified.
 */
export const resetTokenSchema = z
  .string({ error: AUTH_MESSAGES.otpNotVerified })
  .min(1, AUTH_MESSAGES.otpNotVerified)
  .regex(/^[A-Za-z0-9_-]{20,128}$/, AUTH_MESSAGES.resetTokenInvalid);
export const verifyOtpResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  resetToken: z.string(),
});
export type VerifyOtpResponse = z.infer<typeof verifyOtpResponseSchema>;
/** The server judges the new password against the account's name too. */
export const resetPasswordBodySchema = z
  .object({
    email,
    newPassword: passwordSchema,
    resetToken: resetTokenSchema,
  })
  .superRefine(
    ...ownPasswordRefinement('newPassword', (body: { newPassword: string; email: string }) => body),
  );
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

/** One sign-in of the person (GET /auth/sessions): when, from which browser and address; `current` is the caller's. */
export const sessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  user_agent: z.string(),
  address: z.string(),
  current: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;
export const sessionListResponseSchema = z.object({ success: z.literal(true), data: z.array(sessionSchema) });
export type SessionListResponse = z.infer<typeof sessionListResponseSchema>;
export const sessionIdParamsSchema = z.object({ id: z.uuid({ error: 'The session id is not valid.' }) });

export const changePasswordBodySchema = z
  .object({
    old_password: z
      .string({ error: PASSWORD_MESSAGES.required })
      .min(1, PASSWORD_MESSAGES.required)
      .max(1024),
    new_password: passwordSchema,
    confirm_password: z.string({ error: PASSWORD_MESSAGES.required }).min(1, PASSWORD_MESSAGES.required),
  })
  .refine((body) => body.new_password === body.confirm_password, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ['confirm_password'],
  })
  .refine((body) => body.new_password !== body.old_password, {
    message: PASSWORD_MESSAGES.sameAsOld,
    path: ['new_password'],
  });
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

/** change-password answers with a fresh token: the change signs out every older token. */
export const changePasswordResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  accessToken: z.string(),
});

/** One of an option list, or '' to clear the field. */
const optionOrEmpty = (options: readonly string[], message: string) =>
  z
    .string({ error: message })
    .refine((value) => value === '' || options.includes(value), message)
    .optional();

const optionalText = (max: number, message: string) =>
  safeText(z.string().trim().max(max, message)).optional();

/** The text fields of the multipart update-profile call; every field is optional, empty means "clear". */
export const updateProfileFieldsSchema = z.object({
  name: name.optional(),
  zip_code: zipCode.optional(),
  birth_date: z
    .string()
    .trim()
    .refine((value) => value === '' || isIsoDate(value), AUTH_MESSAGES.birthDateInvalid)
    .refine(
      (value) => value === '' || value <= new Date().toISOString().slice(0, 10),
      AUTH_MESSAGES.birthDateFuture,
    )
    .optional(),
  gender: optionOrEmpty(GENDERS, AUTH_MESSAGES.genderInvalid),
  race: optionOrEmpty(RACES, AUTH_MESSAGES.raceInvalid),
  ethnicity: optionOrEmpty(ETHNICITIES, AUTH_MESSAGES.ethnicityInvalid),
  phone: z
    .string()
    .trim()
    .refine((value) => value === '' || /^\+?[\d\s().-]{10,20}$/.test(value), AUTH_MESSAGES.phoneInvalid)
    .refine((value) => {
      const digits = value.replace(/\D/g, '').length;
      return value === '' || (digits >= 10 && digits <= 15);
    }, AUTH_MESSAGES.phoneInvalid)
    .optional(),
  address: optionalText(200, AUTH_MESSAGES.addressFieldTooLong),
  city: optionalText(100, AUTH_MESSAGES.addressFieldTooLong),
  state: optionalText(50, AUTH_MESSAGES.addressFieldTooLong),
});
export type UpdateProfileFields = z.input<typeof updateProfileFieldsSchema>;

/** The user profile plus the fields update-profile manages. */
export const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  email: z.string(),
  zip_code: z.string(),
  patient_id: z.string().nullable(),
  caregiver_id: z.string().nullable(),
  stripe_customer_id: z.string().nullable(),
  email_verified: z.boolean(),
  birth_date: z.string().nullable(),
  age: z.number().nullable(),
  gender: z.string().nullable(),
  race: z.string().nullable(),
  ethnicity: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  photo_url: z.string().nullable(),
  beta_policy_accepted_at: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = z.object({ success: z.literal(true), data: profileSchema });
export const updateProfileResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: profileSchema,
});

/** What a patient learns of one of their caregivers by e-mail (user-info): id, name and role, nothing else. */
export const userInfoSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) });
export type UserInfo = z.infer<typeof userInfoSchema>;
export const userInfoResponseSchema = z.object({ success: z.literal(true), data: userInfoSchema });

/** What one person may see of another linked to them (GET /auth/:id). */
export const publicUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  patient_id: z.string().nullable(),
  caregiver_id: z.string().nullable(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;
export const userInfoQuerySchema = z.object({ email });
export const userResponseSchema = z.object({ success: z.literal(true), data: publicUserSchema });
export const userIdParamsSchema = z.object({ id: z.uuid({ error: 'The user id is not valid.' }) });

export const addressBodySchema = z.object({
  address: safeText(
    z
      .string({ error: AUTH_MESSAGES.addressRequired })
      .trim()
      .min(1, AUTH_MESSAGES.addressRequired)
      .max(200, AUTH_MESSAGES.addressFieldTooLong),
  ),
  city: safeText(
    z
      .string({ error: AUTH_MESSAGES.cityRequired })
      .trim()
      .min(1, AUTH_MESSAGES.cityRequired)
      .max(100, AUTH_MESSAGES.addressFieldTooLong),
  ),
  state: safeText(
    z
      .string({ error: AUTH_MESSAGES.stateRequired })
      .trim()
      .min(1, AUTH_MESSAGES.stateRequired)
      .max(50, AUTH_MESSAGES.addressFieldTooLong),
  ),
  zip_code: z
    .string({ error: AUTH_MESSAGES.usZipInvalid })
    .trim()
    .regex(US_ZIP_PATTERN, AUTH_MESSAGES.usZipInvalid),
});
export type AddressBody = z.input<typeof addressBodySchema>;
export const validatedAddressResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    address: z.string(),
    city: z.string(),
    state: z.string(),
    zip_code: z.string(),
    country: z.literal('US'),
  }),
});

/**
 * The beta-user disclaimer (README.md beside this file): four acknowledgements, all required, stored per
 * user.
 */
export const BETA_POLICY_EFFECTIVE_DATE = '2025-06-30';
export const BETA_POLICY_ACKNOWLEDGEMENTS = [
  { key: 'notHipaa', label: 'I understand that Kincare is not HIPAA compliant during the beta.' },
  {
    key: 'notForMedicalDecisions',
    label: 'I understand that Kincare is not for medical decisions and I will ask my doctor about my care.',
  },
  { key: 'dataMayBeDeleted', label: 'I understand that beta data may be deleted or migrated.' },
  { key: 'agreeToPolicy', label: 'I have read and agree to the Beta User Policy.' },
] as const;
export type BetaAcknowledgementKey = (typeof BETA_POLICY_ACKNOWLEDGEMENTS)[number]['key'];
export const BETA_POLICY_MESSAGES = {
  allRequired: 'Please tick all four boxes to continue.',
  notAccepted:
    'Please accept the Beta User Policy before you add or change anything. Open Kincare and review the policy to continue.',
} as const;
export { BETA_POLICY_NOT_ACCEPTED } from './error-texts';
export const betaPolicyBodySchema = z.object({
  notHipaa: z.literal(true, { error: BETA_POLICY_MESSAGES.allRequired }),
  notForMedicalDecisions: z.literal(true, { error: BETA_POLICY_MESSAGES.allRequired }),
  dataMayBeDeleted: z.literal(true, { error: BETA_POLICY_MESSAGES.allRequired }),
  agreeToPolicy: z.literal(true, { error: BETA_POLICY_MESSAGES.allRequired }),
});
