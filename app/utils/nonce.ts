import { createContext, useContext } from "react";

// The per-request CSP nonce (server.ts) reaches <Scripts> through this context. Browsers hide
// nonce attributes from scripts, so on the client it is simply "".
const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
