// The face of the unsubscribe module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { oneClickHeaders, prependHeaders } from './one-click-headers';
export { ONE_CLICK, unsubscribeKey } from './unsubscribe-token';
