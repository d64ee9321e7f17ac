// Service cards in a grid, each with its Add to Cart (the home page's featured services, the services page).
import { ServiceCardCartButton } from '../cart/ServicePackageCartButton.tsx'
import { ServiceCard, type ServiceCardData } from './ServiceCard.tsx'

export function ServiceCardGrid({ services, className }: { services: ServiceCardData[]; className: string }) {
  return (
    <div className={className}>
      {services.map((service) => (
        <ServiceCard key={service.id} service={service} cartAction={<ServiceCardCartButton serviceId={service.id} />} />
      ))}
    </div>
  )
}
