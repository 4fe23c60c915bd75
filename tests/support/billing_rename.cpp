#include "support/billing_rename.h"

namespace wstest {

const std::vector<Replacement> kRenameBilling = {
    {"agents/AGbilling01.json", "\"name\": \"Billing\"", "\"name\": \"Payments\""},
};

const std::vector<Replacement> kFollowBillingRename = {
    {"agents/AGtriage01.json", "\"handoffs\": [\"Billing\"]", "\"handoffs\": [\"Payments\"]"},
    {"access/grants/GTsupport01.json", "\"Billing\"", "\"Payments\""},
    {"ai-tools/TLroute01.cs", "Agents.Billing", "Agents.Payments"},
};

const std::string kHalfRenameDiagnostics =
    "access/grants/GTsupport01.json:5:25: error[WS013]: unresolved reference to agent 'Billing'\n"
    "  \"agents\": [\"Triage\", \"Billing\"]\n"
    "                        ^~~~~~~\n"
    "agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in agents/AGbilling01.json\n"
    "  \"name\": \"Payments\",\n"
    "           ^~~~~~~~\n"
    "agents/AGtriage01.json:8:17: error[WS013]: unresolved reference to agent 'Billing'\n"
    "  \"handoffs\": [\"Billing\"]\n"
    "                ^~~~~~~\n"
    "agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in agents/AGbilling01.json\n"
    "  \"name\": \"Payments\",\n"
    "           ^~~~~~~~\n"
    "ai-tools/TLroute01.cs:8:18: error[WS013]: unresolved reference 'Agents.Billing'\n"
    "    return await Agents.Billing.Handoff(ticket);\n"
    "                 ^~~~~~~~~~~~~~\n"
    "agents/AGbilling01.json:2:12: note: 'Billing' was renamed to 'Payments' in agents/AGbilling01.json\n"
    "  \"name\": \"Payments\",\n"
    "           ^~~~~~~~\n";

}  // namespace wstest
