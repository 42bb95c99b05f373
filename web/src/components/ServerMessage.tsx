/**
 * The server-message display of every feature. Temporary re-export: the component itself
 * moves here from features/common/ServerMessage.tsx once the auth work there is merged.
 */
export { ServerMessage } from '../features/common/ServerMessage'
