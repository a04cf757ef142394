// The face of the api-keys module: what other modules may use (issue 30 item 5). Other modules
// import from here, never from a file of this module (lint).
export { apiKeyDomainRestricted } from './api-keys.usecases';
