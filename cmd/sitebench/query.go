package main

// publishedQuery asks GraphQL for what GET .../published answers: the site,
// its sections with their site spaces, each site space's space (with its
// organization, parent and permissions), and the customizations (the site's
// and the one each site space shows). Scripts are always empty and left out.
const publishedQuery = `query PublishedSite($site: ID!) {
  site(id: $site) {
    object id type appliedType title
    icon { icon { light dark } emoji }
    hostname basename
    proxy { origin target }
    visibility published siteSpaces createdAt
    adaptiveContent { enabled }
    ads { status submittable }
    agentsContext
    features { id plan frozen customizations }
    urls { location app published }
    customization
    sections {
      nodes {
        object id title description default path condition
        sectionGroup { id }
        icon
        urls { published }
        siteSpaces {
          nodes {
            object id path
            section { id }
            title default condition hasAdvancedCustomizationFeature hidden
            urls { published }
            customization
            space {
              object id title emoji visibility createdAt updatedAt deletedAt editMode
              mergeRules { type rules { rule users } }
              urls { location app published public icon }
              organization { id }
              parent { id }
              language revision defaultLevel comments changeRequests changeRequestsOpen changeRequestsDraft
              permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
            }
          }
        }
      }
    }
  }
}`
