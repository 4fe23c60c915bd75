// name: RouteTicket
// description: Moves a ticket to a queue and hands it to the billing agent when needed
var ticket = await Graph.Get(N.Ticket.Type, args.TicketId);
ticket.Set(N.Ticket.Status, "routed");
if (args.Queue == "billing")
{
    // The billing agent takes over from here.
    return await Agents.Billing.Handoff(ticket);
}
return ticket;
