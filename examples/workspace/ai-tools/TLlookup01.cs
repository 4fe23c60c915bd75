// name: LookupCustomer
// description: Finds a customer by e-mail and returns the open tickets
var customer = await Graph.FindOne(N.Customer.Type, N.Customer.Email, args.Email);
var tickets = await Graph.Find(N.Ticket.Type, N.Ticket.Customer, customer.Id);
return new { customer.Name, Open = tickets.Count(t => t.Status == "open") };
