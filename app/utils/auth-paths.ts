// Paths of the sign-in flow (docs/decisions/023), shared by the services and the screens' links
// (a component cannot take a constant from a *.server module: it is empty in the browser bundle).

/** The password screen. */
export const LOGIN_PATH = "/admin/login";
/** The second screen of a sign-in: the code of a person with a second factor. */
export const SECOND_STEP_PATH = "/admin/login/code";
/** Where a person enrols in two-factor sign-in, manages their recovery codes or turns it off. */
export const TWO_FACTOR_PATH = "/admin/profile/two-factor";
