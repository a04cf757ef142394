// The face of the branding module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { brandingForSend } from './branding.usecases';
export { appendFooter } from './logo-token';
