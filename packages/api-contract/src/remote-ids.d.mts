export declare const REMOTE_IDS: readonly ['marketing', 'billing', 'dashboard', 'staff'];
export declare const STAFF_REMOTE: 'staff';
